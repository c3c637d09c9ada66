/**
 * Keeps the end of a CLI's stderr for error messages: the cause of a failure is at the end, and a
 * chatty CLI must not grow memory without bound. Lines matching `ignore` (startup notices a CLI prints
 * on every run) are left out of `tail()` and `lines()`.
 */
export interface StderrTailOptions {
  /** Characters kept (default 16,384). */
  limit?: number;
  /** Lines that never explain a failure. */
  ignore?: readonly RegExp[];
}

export class StderrTail {
  private kept = '';
  private readonly limit: number;
  private readonly ignore: readonly RegExp[];

  constructor(options: StderrTailOptions = {}) {
    this.limit = options.limit ?? 16_384;
    this.ignore = options.ignore ?? [];
    if (!Number.isInteger(this.limit) || this.limit <= 0) throw new RangeError('options.limit must be a positive integer');
  }

  push(chunk: string): void {
    this.kept += chunk;
    if (this.kept.length > this.limit * 2) this.kept = this.kept.slice(-this.limit);
  }

  /** Reads a stream to its end. Start it without awaiting, so stdout and stderr drain together. */
  async drain(chunks: AsyncIterable<string>): Promise<void> {
    for await (const chunk of chunks) this.push(chunk);
  }

  /** The kept text as the CLI wrote it (its last `limit` characters), for parsing a report it printed there. */
  text(): string {
    return this.kept.slice(-this.limit);
  }

  /** The kept lines, trimmed at the end, without empty and ignored lines. */
  lines(): string[] {
    return this.text()
      .split(/\r?\n/)
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '' && !this.ignore.some((pattern) => pattern.test(line)));
  }

  /** The last `maxChars` characters of `lines()`, joined; `…` marks a cut. Empty when nothing is kept. */
  tail(maxChars = 2_000): string {
    const text = this.lines().join('\n');
    return text.length > maxChars ? `…${text.slice(-maxChars)}` : text;
  }
}
