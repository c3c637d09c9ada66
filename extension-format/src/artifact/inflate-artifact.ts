// The inflated bytes of an artifact file, pulled on demand: gunzip runs only as far ahead as the tar
// reader asks, which is what lets a size bound stop a gzip bomb early. The compressed size is bounded
// before the first byte is read.
import { constants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { createGunzip, type Gunzip } from 'node:zlib';
import { SvcError } from '@svc-org/ai-sdk';
import type { InstallBounds } from './install-bounds.js';
import { InstallErrorCodes } from './install-error-codes.js';

const READ_BYTES = 256 * 1024;
const INFLATED_CHUNK_BYTES = 256 * 1024;

export async function* inflateArtifact(tgzFile: string, bounds: Pick<InstallBounds, 'maxArtifactBytes'>): AsyncGenerator<Buffer> {
  const unreadable = (cause: unknown) =>
    new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: `the artifact cannot be read: ${(cause as Error).message}` });
  const stat = await lstat(tgzFile).catch((cause: unknown) => {
    throw unreadable(cause);
  });
  if (!stat.isFile()) throw new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: 'the artifact is not a regular file' });
  if (stat.size > bounds.maxArtifactBytes) {
    throw new SvcError({
      code: InstallErrorCodes.artifactTooLarge,
      message: `the artifact is ${stat.size} bytes, over the bound of ${bounds.maxArtifactBytes}`,
      details: { limit: bounds.maxArtifactBytes, size: stat.size },
    });
  }
  const file = await open(tgzFile, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch((cause: unknown) => {
    throw unreadable(cause);
  });
  const gunzip = createGunzip({ chunkSize: INFLATED_CHUNK_BYTES });
  const feeding = feed(file, gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (cause) {
    throw new SvcError({
      code: InstallErrorCodes.artifactInvalidMetadata,
      message: `the artifact is not a valid gzip stream: ${(cause as Error).message}`,
    });
  } finally {
    gunzip.destroy();
    await feeding;
  }
}

/**
 * Reads the file into one buffer, reused once gunzip has taken in what it held: no compressed byte is
 * copied or held twice, and reading stops (and the file is closed) as soon as gunzip is destroyed.
 */
async function feed(file: FileHandle, gunzip: Gunzip): Promise<void> {
  // A destroyed gunzip may never call back for the bytes it was given (it was waiting for its reader).
  const closed = new Promise<void>((resolve) => gunzip.once('close', () => resolve()));
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, READ_BYTES, null);
      if (gunzip.destroyed) return;
      if (bytesRead === 0) {
        gunzip.end();
        return;
      }
      const taken = new Promise<void>((resolve) => gunzip.write(buffer.subarray(0, bytesRead), () => resolve()));
      await Promise.race([taken, closed]);
    }
  } catch (error) {
    gunzip.destroy(error as Error);
  } finally {
    await file.close();
  }
}
