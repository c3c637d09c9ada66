// Writes a stream's chunks to a file in batches: one writev per WRITE_BATCH_BYTES or so, of the
// chunks as they came (no copy into one buffer). A regular file may still take fewer bytes in one
// call; the rest is then written until all of it is.
import type { FileHandle } from 'node:fs/promises';

/** The chunks are written with one writev per this many bytes. */
const WRITE_BATCH_BYTES = 1024 * 1024;

export class BatchedWrites {
  private batch: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly file: FileHandle) {}

  /** Keeps the chunk; writes the batch once it holds WRITE_BATCH_BYTES. */
  async add(chunk: Buffer): Promise<void> {
    this.batch.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes >= WRITE_BATCH_BYTES) await this.flush();
  }

  /** Writes what is kept. */
  async flush(): Promise<void> {
    if (this.bytes === 0) return;
    const [chunks, bytes] = [this.batch, this.bytes];
    this.batch = [];
    this.bytes = 0;
    let written = (await this.file.writev(chunks)).bytesWritten;
    if (written === bytes) return;
    const rest = Buffer.concat(chunks, bytes);
    while (written < bytes) written += (await this.file.write(rest, written)).bytesWritten;
  }
}
