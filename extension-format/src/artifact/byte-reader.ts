// Pulls exact byte counts out of a chunked stream without copying more than a header's worth. Reading on
// demand is what bounds decompression: gunzip only runs as far ahead as the reader has asked.
import { SvcError } from '@svc-org/ai-sdk';
import { InstallErrorCodes } from './install-error-codes.js';

export class ByteReader {
  readonly #iterator: AsyncIterator<Buffer>;
  #chunk: Buffer = Buffer.alloc(0);
  #ended = false;
  /** Bytes handed out so far (headers, padding and bodies). */
  consumed = 0;

  constructor(source: AsyncIterable<Buffer>) {
    this.#iterator = source[Symbol.asyncIterator]();
  }

  /** Exactly `length` bytes; null when the stream ended exactly here; throws when it ends part-way. */
  async read(length: number): Promise<Buffer | null> {
    if (this.#chunk.length >= length) return this.#take(length);
    const parts: Buffer[] = [];
    let have = 0;
    while (have < length) {
      if (this.#chunk.length === 0 && !(await this.#pull())) {
        if (have === 0) return null;
        throw truncated();
      }
      const part = this.#take(Math.min(length - have, this.#chunk.length));
      parts.push(part);
      have += part.length;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
  }

  /** Yields chunks that add up to exactly `length` bytes (views, not copies). */
  async *stream(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      if (this.#chunk.length === 0 && !(await this.#pull())) throw truncated();
      const part = this.#take(Math.min(left, this.#chunk.length));
      left -= part.length;
      yield part;
    }
  }

  async skip(length: number): Promise<void> {
    for await (const _ of this.stream(length));
  }

  /** Stops the source (e.g. closes the file and gunzip) when the reader is done before its end. */
  async close(): Promise<void> {
    this.#ended = true;
    await this.#iterator.return?.();
  }

  #take(length: number): Buffer {
    const part = this.#chunk.subarray(0, length);
    this.#chunk = this.#chunk.subarray(length);
    this.consumed += length;
    return part;
  }

  async #pull(): Promise<boolean> {
    while (!this.#ended) {
      const next = await this.#iterator.next();
      if (next.done) {
        this.#ended = true;
        break;
      }
      if (next.value.length > 0) {
        this.#chunk = next.value;
        return true;
      }
    }
    return false;
  }
}

function truncated(): SvcError {
  return new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: 'the archive is truncated' });
}
