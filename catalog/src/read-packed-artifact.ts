// Checks a packed artifact as an install would, then unpacks it into a temporary folder and runs the
// host's preflight checks of the manifest, the entry and the config schema on what it holds. `svc ext
// pack` runs this on what it just packed, `svc catalog build` on every artifact it publishes: a
// package either passes both or neither.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderPackage } from '@svc-org/ai-sdk';
import { extractArtifact } from '@svc-org/extension-format/artifact';
import { checkArtifactInstallable } from './check-artifact-installable.js';
import { checkBuiltProvider, checkProviderManifest } from './check-provider-metadata.js';

export async function readPackedArtifact(bytes: Buffer, label: string): Promise<ProviderPackage> {
  await checkArtifactInstallable(bytes, label);
  const dir = await mkdtemp(join(tmpdir(), 'svc-catalog-unpack-'));
  try {
    const file = join(dir, 'artifact.tgz');
    await writeFile(file, bytes);
    const packageDir = join(dir, 'package');
    await extractArtifact(file, packageDir);
    const manifest = await checkProviderManifest(packageDir);
    await checkBuiltProvider(packageDir, manifest);
    return manifest;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
