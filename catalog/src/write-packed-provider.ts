// Writes what `svc ext pack` made: `<id>-<version>.tgz` and its declaration `<id>-<version>.json`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packDeclarationFileName } from './pack-declaration.js';
import type { PackedProvider } from './pack-provider.js';

export async function writePackedProvider(outDir: string, packed: PackedProvider): Promise<{ artifactFile: string; declarationFile: string }> {
  await mkdir(outDir, { recursive: true });
  const artifactFile = join(outDir, packed.fileName);
  const declarationFile = join(outDir, packDeclarationFileName(packed.fileName));
  await writeFile(artifactFile, packed.bytes);
  await writeFile(declarationFile, `${JSON.stringify(packed.declaration, null, 2)}\n`);
  return { artifactFile, declarationFile };
}
