// Keeps the end of the CLI's stderr for error messages: the cause of a failure is at the end, and a
// chatty CLI must not grow memory without bound.
const DEFAULT_LIMIT = 4_000;

export class StderrTail {
  private text = '';

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit);
  }

  /** Reads a stream to its end; call without awaiting first so stdout and stderr drain together. */
  async drain(chunks: AsyncIterable<string>): Promise<void> {
    for await (const chunk of chunks) this.push(chunk);
  }

  /** The kept text, trimmed; a JSON error report (`{"error":{"message"}}`, printed in json mode) gives its message. */
  summary(): string {
    const text = this.text.trim();
    try {
      const report = JSON.parse(text) as { error?: { message?: unknown } };
      if (typeof report?.error?.message === 'string') return report.error.message;
    } catch {
      // not a JSON report: the plain text is the summary
    }
    return text;
  }
}
