/** Keeps the end of the CLI's stderr for error messages; the head of a long stderr is rarely the cause. */
export class StderrTail {
  private text = '';

  constructor(private readonly limit = 16_384) {}

  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
  }

  /** The last `maxChars` characters, trimmed. */
  tail(maxChars = 2_000): string {
    const trimmed = this.text.trim();
    return trimmed.length > maxChars ? `…${trimmed.slice(-maxChars)}` : trimmed;
  }
}
