// Downloads one artifact to a file through a running byte bound and a SHA-256, and keeps it only if
// both agree with the index entry. Any rejection deletes the partial file.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { CancelledError, ErrorCodes, SvcError } from '@svc-org/ai-sdk';
import { httpsGet } from './https-get.js';
import { DEFAULT_INSTALL_BOUNDS, resolveInstallBounds, InstallErrorCodes, BatchedWrites } from '@svc-org/extension-format/artifact';
import { parseHttpsUrl } from './parse-https-url.js';

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number;
}

export interface DownloadArtifactOptions {
  /** From the index: SHA-256 of the .tgz, hex. */
  sha256: string;
  /** From the index: byte size of the .tgz. */
  size: number;
  /** Where the verified file is written (created or truncated; never followed if it is a link). */
  destFile: string;
  /** Default 32 MiB (DEFAULT_INSTALL_BOUNDS.maxArtifactBytes). */
  maxBytes?: number;
  token?: string;
  /** Trusted CAs replacing Node's store; by default Node's store plus NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | Array<string | Buffer>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Deadline of the whole transfer in ms (see httpsGet). */
  deadlineMs?: number;
  /** Stall timeout in ms (see httpsGet). */
  stallMs?: number;
  onProgress?: (progress: DownloadProgress) => void;
}

export interface DownloadedArtifact {
  file: string;
  sha256: string;
  size: number;
}

/** An artifact is up to 32 MiB: a slow but moving link gets minutes; a stalled one is caught by the stall timeout. */
export const ARTIFACT_DEADLINE_MS = 10 * 60_000;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

// long: one streamed download whose byte count, hash, deadline and file writes share the same loop and clean-up
export async function downloadArtifact(url: string | URL, options: DownloadArtifactOptions): Promise<DownloadedArtifact> {
  const target = parseHttpsUrl(url, 'the artifact');
  const maxBytes = resolveInstallBounds({ maxArtifactBytes: options.maxBytes ?? DEFAULT_INSTALL_BOUNDS.maxArtifactBytes }).maxArtifactBytes;
  const expected = options.sha256.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(expected) || !Number.isSafeInteger(options.size) || options.size <= 0) {
    throw new SvcError({ code: ErrorCodes.invalidRequest, message: 'downloadArtifact needs the index sha256 (64 hex digits) and a positive size' });
  }
  const tooLarge = (message: string, details: Record<string, unknown>) =>
    new SvcError({ code: InstallErrorCodes.artifactTooLarge, message: `the artifact ${message}`, details });
  if (options.size > maxBytes) throw tooLarge(`is ${options.size} bytes per the index, over the bound of ${maxBytes}`, { limit: maxBytes, size: options.size });

  const response = await httpsGet(target, {
    what: 'the artifact',
    failureCode: InstallErrorCodes.artifactDownloadFailed,
    token: options.token,
    ca: options.ca,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    deadlineMs: options.deadlineMs ?? ARTIFACT_DEADLINE_MS,
    stallMs: options.stallMs,
  });
  const contentLength = response.headers['content-length'];
  if (contentLength !== undefined) {
    const announced = Number(contentLength);
    let refusal: SvcError | undefined;
    if (announced > maxBytes) refusal = tooLarge(`is announced as ${announced} bytes, over the bound of ${maxBytes}`, { limit: maxBytes, announced });
    else if (announced !== options.size) {
      refusal = new SvcError({
        code: InstallErrorCodes.artifactSizeMismatch,
        message: `the artifact is announced as ${announced} bytes, the index says ${options.size}`,
        details: { expected: options.size, announced },
      });
    }
    if (refusal !== undefined) {
      response.destroy();
      throw refusal;
    }
  }

  let file: FileHandle;
  try {
    file = await open(options.destFile, WRITE_FLAGS, 0o644);
  } catch (cause) {
    response.destroy();
    throw new SvcError({ code: InstallErrorCodes.artifactDownloadFailed, message: `the artifact cannot be written: ${(cause as Error).message}` });
  }
  const hash = createHash('sha256');
  let received = 0;
  try {
    // TLS hands out ~16 KiB records: they are written in batches, each with one writev of the records
    // as received (no copy into a larger buffer).
    const writes = new BatchedWrites(file);
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        received += chunk.length;
        // The index size is the bound while streaming (it is never above maxBytes): a body that runs past
        // it is cut off at once, not read to the end.
        if (received > options.size) {
          throw tooLarge(`body runs past the ${options.size} bytes the index declares`, { limit: options.size, received });
        }
        hash.update(chunk);
        options.onProgress?.({ receivedBytes: received, totalBytes: options.size });
        await writes.add(chunk);
      }
      await writes.flush();
    } finally {
      await file.close();
    }
    if (received !== options.size) {
      throw new SvcError({
        code: InstallErrorCodes.artifactSizeMismatch,
        message: `the artifact body is ${received} bytes, the index says ${options.size}`,
        details: { expected: options.size, received },
      });
    }
    const actual = hash.digest('hex');
    if (actual !== expected) {
      throw new SvcError({
        code: InstallErrorCodes.artifactDigestMismatch,
        message: `the artifact's SHA-256 is ${actual}, the index says ${expected}`,
        details: { expected, actual },
      });
    }
    return { file: options.destFile, sha256: actual, size: received };
  } catch (error) {
    response.destroy();
    await unlink(options.destFile).catch(() => undefined);
    if (SvcError.isInstance(error)) throw error;
    if (options.signal?.aborted) throw new CancelledError('the artifact download was cancelled');
    throw new SvcError({
      code: InstallErrorCodes.artifactDownloadFailed,
      message: `the artifact download broke off after ${received} bytes: ${(error as Error).message}`,
      retryable: true,
    });
  }
}
