/** An async-iterable queue of text chunks, fed by messages from the other side of the port. */
export class TextQueue implements AsyncIterable<string> {
  private readonly chunks: string[] = [];
  private closed = false;
  private wake: (() => void) | undefined;
  private iterating = false;
  private bufferedChars = 0;

  /** @param maxUnreadChars when nobody iterates, keep only the newest this many chars (stderr). */
  constructor(
    private readonly onConsumed?: (chars: number) => void,
    private readonly maxUnreadChars = Number.POSITIVE_INFINITY,
  ) {}

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.bufferedChars += chunk.length;
    if (!this.iterating) {
      while (this.bufferedChars > this.maxUnreadChars && this.chunks.length > 1) {
        this.bufferedChars -= this.chunks.shift()!.length;
      }
    }
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    this.iterating = true;
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk !== undefined) {
        this.bufferedChars -= chunk.length;
        this.onConsumed?.(chunk.length);
        yield chunk;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
