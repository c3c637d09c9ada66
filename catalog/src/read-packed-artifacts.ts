// Reads a folder of packed artifacts (`svc ext pack` output: `<id>-<version>.tgz` with its
// `<id>-<version>.json`) in name order, and checks each one again: its bytes against its declaration,
// then the archive, the manifest, the entry and the config schema as an install would. A declaration
// that no longer describes its artifact (a rebuilt .tgz, an edited .json) is refused by name.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SvcError, type ProviderPackage } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import { compareCodeUnits } from './compare-code-units.js';
import { digestArtifact } from './digest-artifact.js';
import { packDeclarationFileName, packDeclarationOf, type PackDeclaration } from './pack-declaration.js';
import { packedFileName } from './pack-provider.js';
import { readPackedArtifact } from './read-packed-artifact.js';

export interface PackedArtifact {
  manifest: ProviderPackage;
  bytes: Buffer;
  /** The .tgz it was read from. */
  file: string;
}

export async function readPackedArtifacts(artifactsDir: string): Promise<PackedArtifact[]> {
  let names: string[];
  try {
    names = (await readdir(artifactsDir)).filter((name) => name.endsWith('.tgz')).sort(compareCodeUnits);
  } catch (cause) {
    throw new SvcError({ code: CatalogErrorCodes.usage, message: `--artifacts ${artifactsDir} cannot be read: ${(cause as Error).message}`, cause });
  }
  const packed: PackedArtifact[] = [];
  for (const name of names) {
    const file = join(artifactsDir, name);
    const declarationFile = join(artifactsDir, packDeclarationFileName(name));
    const declaration = await readDeclaration(declarationFile, name);
    const bytes = await readFile(file);
    const digest = digestArtifact(bytes);
    if (digest.sha256 !== declaration.artifact.sha256 || digest.size !== declaration.artifact.size) {
      throw new SvcError({
        code: CatalogErrorCodes.declarationMismatch,
        message: `${file} is not the artifact ${declarationFile} declares (sha256 ${digest.sha256}, ${digest.size} bytes; declared sha256 ${declaration.artifact.sha256}, ${declaration.artifact.size} bytes): pack it again`,
        details: { sourceFile: declarationFile },
      });
    }
    const manifest = await readPackedArtifact(bytes, name);
    if (packedFileName(manifest) !== name) {
      throw new SvcError({
        code: CatalogErrorCodes.packInvalid,
        message: `${file} holds ${manifest.svc.id} ${manifest.version}, so its name must be ${packedFileName(manifest)}`,
      });
    }
    const expected = packDeclarationOf(manifest, name, digest);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(expected)), declaration)) {
      const fields = Object.keys(expected).filter((key) => !isDeepStrictEqual((expected as unknown as Record<string, unknown>)[key], (declaration as unknown as Record<string, unknown>)[key]));
      throw new SvcError({
        code: CatalogErrorCodes.declarationMismatch,
        message: `${declarationFile} does not describe the package in ${name} (${fields.join(', ') || 'extra fields'} differ): pack it again`,
        details: { sourceFile: declarationFile, fields },
      });
    }
    packed.push({ manifest, bytes, file });
  }
  return packed;
}

async function readDeclaration(file: string, artifactName: string): Promise<PackDeclaration> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new SvcError({
      code: CatalogErrorCodes.declarationInvalid,
      message: `${artifactName} has no readable declaration ${file} (svc ext pack writes both): ${(cause as Error).message}`,
      details: { sourceFile: file },
    });
  }
  const declaration = value as Partial<PackDeclaration> | null;
  if (typeof declaration !== 'object' || declaration === null || typeof declaration.artifact !== 'object' || declaration.artifact === null || declaration.artifact.file !== artifactName) {
    throw new SvcError({
      code: CatalogErrorCodes.declarationInvalid,
      message: `${file} is not the declaration svc ext pack writes for ${artifactName}`,
      details: { sourceFile: file },
    });
  }
  return declaration as PackDeclaration;
}
