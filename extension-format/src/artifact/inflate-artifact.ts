// The inflated bytes of an artifact file, pulled on demand: gunzip runs only as far ahead as the tar
// reader asks, which is what lets a size bound stop a gzip bomb early. The compressed size is bounded
// before the first byte is read.
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { SvcError } from '@svc-org/ai-sdk';
import type { InstallBounds } from './install-bounds.js';
import { InstallErrorCodes } from './install-error-codes.js';

export async function* inflateArtifact(tgzFile: string, bounds: Pick<InstallBounds, 'maxArtifactBytes'>): AsyncGenerator<Buffer> {
  const stat = await lstat(tgzFile).catch((cause: unknown) => {
    throw new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: `the artifact cannot be read: ${(cause as Error).message}` });
  });
  if (!stat.isFile()) throw new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: 'the artifact is not a regular file' });
  if (stat.size > bounds.maxArtifactBytes) {
    throw new SvcError({
      code: InstallErrorCodes.artifactTooLarge,
      message: `the artifact is ${stat.size} bytes, over the bound of ${bounds.maxArtifactBytes}`,
      details: { limit: bounds.maxArtifactBytes, size: stat.size },
    });
  }
  const input = createReadStream(tgzFile, { highWaterMark: 256 * 1024 });
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (cause) {
    throw new SvcError({
      code: InstallErrorCodes.artifactInvalidMetadata,
      message: `the artifact is not a valid gzip stream: ${(cause as Error).message}`,
    });
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}
