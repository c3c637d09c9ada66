// `svc ext pack`: a built provider folder → its deterministic artifact and the declaration a catalog
// needs. The checks are the catalog build's own (it packs every provider with this function): the
// installer's manifest, permission, entry and config-schema rules on the folder, the archive rules on
// the bytes, the same rules again on the unpacked bytes, and the index schema on the entry.
import type { ProviderPackage } from '@svc-org/ai-sdk';
import { checkBuiltProvider, checkProviderManifest } from './check-provider-metadata.js';
import { collectPackageFiles } from './collect-package-files.js';
import { digestArtifact } from './digest-artifact.js';
import type { CatalogSchemas } from './load-catalog-schemas.js';
import { packDeterministicTgz } from './pack-deterministic-tgz.js';
import { packDeclarationOf, type PackDeclaration } from './pack-declaration.js';
import { readPackedArtifact } from './read-packed-artifact.js';
import { readProviderPackage } from './read-provider-package.js';

export interface PackedProvider {
  manifest: ProviderPackage;
  /** `<id>-<version>.tgz` */
  fileName: string;
  bytes: Buffer;
  declaration: PackDeclaration;
  /** Hidden files and folders under dist/ the artifact leaves out, for the author to hear. */
  leftOut: string[];
}

export async function packProvider(providerDir: string, schemas: CatalogSchemas): Promise<PackedProvider> {
  // The installer's manifest rules first: a package the host would refuse is refused here, by name.
  await checkProviderManifest(providerDir);
  const pkg = await readProviderPackage(providerDir);
  await checkBuiltProvider(providerDir, pkg.manifest);
  const { files, leftOut } = await collectPackageFiles(providerDir, pkg.raw, pkg.manifest);
  const bytes = packDeterministicTgz(files);
  const label = `${pkg.manifest.svc.id}@${pkg.manifest.version}`;
  const manifest = await readPackedArtifact(bytes, label);
  const fileName = packedFileName(manifest);
  const declaration = packDeclarationOf(manifest, fileName, digestArtifact(bytes));
  // The entry this package gets in an index, checked against the index schema now rather than at publication.
  schemas.validateIndex({ schemaVersion: 1, extensions: [declarationAsExtension(declaration, 'https://catalog.invalid/artifacts')] });
  return { manifest, fileName, bytes, declaration, leftOut };
}

export function packedFileName(manifest: Pick<ProviderPackage, 'version' | 'svc'>): string {
  return `${manifest.svc.id}-${manifest.version}.tgz`;
}

/** The index's view of a declaration whose artifact lives at `<baseUrl>/<artifact file>`. */
export function declarationAsExtension(declaration: PackDeclaration, baseUrl: string) {
  const { file, ...digest } = declaration.artifact;
  return {
    id: declaration.id,
    publisher: declaration.publisher,
    displayName: declaration.displayName,
    description: declaration.description,
    versions: [{ ...declaration.entry, artifact: { url: `${baseUrl}/${file}`, ...digest } }],
  };
}
