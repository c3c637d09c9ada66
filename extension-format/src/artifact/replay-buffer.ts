// Keeps the inflated bytes the inspection pass read, so extraction writes exactly the bytes that were
// inspected (and does not inflate the file a second time). Above the limit nothing is kept and the
// caller inflates the file again, relying on the entry-by-entry plan check instead.
export class ReplayBuffer {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  #overflowed = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  async *tee(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      if (!this.#overflowed) {
        this.#bytes += chunk.length;
        if (this.#bytes > this.#limit) {
          this.#overflowed = true;
          this.#chunks = [];
        } else this.#chunks.push(chunk);
      }
      yield chunk;
    }
  }

  /** The kept bytes, or undefined when they went over the limit. */
  replay(): AsyncIterable<Buffer> | undefined {
    if (this.#overflowed) return undefined;
    const chunks = this.#chunks;
    return (async function* () {
      yield* chunks;
    })();
  }
}
