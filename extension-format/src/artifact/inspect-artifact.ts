// Reads a whole artifact and decides on every entry without writing anything.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { SvcError } from '@svc-org/ai-sdk';
import { resolveInstallBounds, type InstallBounds } from './install-bounds.js';
import { inflateArtifact } from './inflate-artifact.js';
import { InstallErrorCodes } from './install-error-codes.js';
import { walkArtifact, type ArtifactInspection } from './walk-artifact.js';

export interface ArtifactReadOptions extends Partial<InstallBounds> {
  /** When given, the file's SHA-256 (hex) must equal it before the archive is read at all. */
  sha256?: string;
}

export async function inspectArtifact(tgzFile: string, options: ArtifactReadOptions = {}): Promise<ArtifactInspection> {
  const bounds = resolveInstallBounds(options);
  if (options.sha256 !== undefined) await verifyFileDigest(tgzFile, options.sha256);
  return walkArtifact(inflateArtifact(tgzFile, bounds), bounds);
}

/** Before the archive is read at all: its bytes are the ones the catalog lists. */
export async function verifyFileDigest(file: string, expected: string): Promise<void> {
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
