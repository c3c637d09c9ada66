// Writes chunks to a file with one writev, the chunks as they are (no copy into one buffer); a regular
// file may still take fewer bytes in one call, and the rest is written until all of it is.
import type { FileHandle } from 'node:fs/promises';

export async function writeAll(file: FileHandle, chunks: Buffer[], bytes: number): Promise<void> {
  let written = (await file.writev(chunks)).bytesWritten;
  if (written === bytes) return;
  const rest = Buffer.concat(chunks, bytes);
  while (written < bytes) written += (await file.write(rest, written)).bytesWritten;
}
