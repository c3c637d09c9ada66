const STDIN_NOTICE = 'Reading additional input from stdin...';
// Codex logs refusals it does not put in the JSON stream on stderr, e.g.
// `2026-…Z ERROR codex_core::tools::router: error=Command blocked by PreToolUse hook: …`.
const LOGGED_ERROR = /^\S+ ERROR /;
const MAX_ERROR_LINES = 20;

/** Keeps the last `limit` characters of a process's stderr, and its logged ERROR lines. */
export class StderrTail {
  private text = '';
  private partial = '';
  private readonly errors: string[] = [];

  constructor(private readonly limit = 2000) {}

  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit);
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.collect(line);
  }

  /** ERROR lines Codex logged (on a run that still succeeded they become warnings). */
  errorLines(): string[] {
    if (this.partial !== '') {
      this.collect(this.partial);
      this.partial = '';
    }
    return [...this.errors];
  }

  /** The tail without the line Codex always prints when stdin is not a terminal. */
  toString(): string {
    return this.text
      .split('\n')
      .filter((line) => line !== STDIN_NOTICE)
      .join('\n')
      .trim();
  }

  private collect(line: string): void {
    if (LOGGED_ERROR.test(line) && this.errors.length < MAX_ERROR_LINES) this.errors.push(line.trimEnd());
  }
}
