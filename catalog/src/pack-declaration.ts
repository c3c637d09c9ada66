// The declaration `svc ext pack` writes next to an artifact (`<id>-<version>.json`): what the index
// will say of it — names, permissions, compatibility, capabilities — and the artifact's file name,
// SHA-256, SRI integrity and size. `svc catalog build` publishes an artifact only when its bytes and its
// manifest still agree with this file, so what a publisher reviewed is what hosts get.
import type { ProviderPackage } from '@svc-org/ai-sdk';
import type { CatalogArtifact, CatalogVersion } from '@svc-org/extension-format/catalog';
import { catalogVersionEntry } from './catalog-version-entry.js';

export const PACK_DECLARATION_VERSION = 1;

export interface PackDeclaration {
  packDeclarationVersion: typeof PACK_DECLARATION_VERSION;
  id: string;
  publisher: string;
  version: string;
  displayName: string;
  description: string;
  /** The index entry of this version, without its URL (the catalog's base URL decides it). */
  entry: Omit<CatalogVersion, 'artifact'>;
  artifact: Omit<CatalogArtifact, 'url'> & { file: string };
}

export function packDeclarationOf(manifest: ProviderPackage, file: string, digest: Omit<CatalogArtifact, 'url'>): PackDeclaration {
  const { artifact: _artifact, ...entry } = catalogVersionEntry(manifest, { url: file, ...digest });
  return {
    packDeclarationVersion: PACK_DECLARATION_VERSION,
    id: manifest.svc.id,
    publisher: manifest.svc.publisher,
    version: manifest.version,
    displayName: manifest.svc.display.name,
    description: manifest.svc.display.description,
    entry,
    artifact: { file, ...digest },
  };
}

/** The declaration's file name for an artifact file name. */
export function packDeclarationFileName(artifactFile: string): string {
  return artifactFile.replace(/\.tgz$/, '.json');
}
