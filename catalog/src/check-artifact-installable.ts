// The packed artifact goes through the installer's own archive checks (entries, links, sizes, the
// package.json rules) before anything is written, so the build cannot publish what an install refuses.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { inspectArtifact } from '@svc-org/extension-format/artifact';
import { CatalogErrorCodes } from './catalog-error-codes.js';

export async function checkArtifactInstallable(bytes: Buffer, label: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-catalog-check-'));
  try {
    const file = join(dir, 'artifact.tgz');
    await writeFile(file, bytes);
    await inspectArtifact(file);
  } catch (error) {
    if (!SvcError.hasCode(error)) throw error;
    throw new SvcError({
      code: CatalogErrorCodes.packInvalid,
      message: `${label}: an install would refuse the packed artifact (${error.code}): ${error.message}`,
      details: { installCode: error.code },
      cause: error,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
