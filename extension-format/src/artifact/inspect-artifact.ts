// Reads a whole artifact and decides on every entry without writing anything.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { SvcError } from '@svc-org/ai-sdk';
import { resolveInstallBounds, type InstallBounds } from './install-bounds.js';
import { inflateArtifact } from './inflate-artifact.js';
import { InstallErrorCodes } from './install-error-codes.js';
import type { ReplayBuffer } from './replay-buffer.js';
import { walkArtifact, type ArtifactInspection } from './walk-artifact.js';

export interface ArtifactReadOptions extends Partial<InstallBounds> {
  /** When given, the file's SHA-256 (hex) must equal it before the archive is read at all. */
  sha256?: string;
}

/** `replay` is for extraction: it keeps the inflated bytes so the second pass replays what was inspected. */
export async function inspectArtifact(tgzFile: string, options: ArtifactReadOptions = {}, replay?: ReplayBuffer): Promise<ArtifactInspection> {
  const bounds = resolveInstallBounds(options);
  if (options.sha256 !== undefined) await verifyFileDigest(tgzFile, options.sha256);
  const inflated = inflateArtifact(tgzFile, bounds);
  return walkArtifact(replay === undefined ? inflated : replay.tee(inflated), bounds);
}

async function verifyFileDigest(file: string, expected: string): Promise<void> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = hash.digest('hex');
  if (actual !== expected.toLowerCase()) {
    throw new SvcError({
      code: InstallErrorCodes.artifactDigestMismatch,
      message: `the artifact's SHA-256 is ${actual}, the catalog says ${expected}`,
      details: { expected, actual },
    });
  }
}
