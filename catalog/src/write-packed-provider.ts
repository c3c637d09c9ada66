// Writes what `svc ext pack` made: `<id>-<version>.tgz` and its declaration `<id>-<version>.json`,
// never through a symbolic link at either name.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { packDeclarationFileName } from './pack-declaration.js';
import type { PackedProvider } from './pack-provider.js';
import { writeFileNoFollow } from './write-file-no-follow.js';

export async function writePackedProvider(outDir: string, packed: PackedProvider): Promise<{ artifactFile: string; declarationFile: string }> {
  await mkdir(outDir, { recursive: true });
  const artifactFile = join(outDir, packed.fileName);
  const declarationFile = join(outDir, packDeclarationFileName(packed.fileName));
  await writeFileNoFollow(artifactFile, packed.bytes);
  await writeFileNoFollow(declarationFile, `${JSON.stringify(packed.declaration, null, 2)}\n`);
  return { artifactFile, declarationFile };
}
