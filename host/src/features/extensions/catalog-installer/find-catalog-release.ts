import { SvcError } from '@svc-org/ai-sdk';
import type { CatalogExtension, CatalogIndex, CatalogVersion } from '../install/index.js';
import { CatalogInstallCodes } from './catalog-install-codes.js';

export interface CatalogRelease {
  extension: CatalogExtension;
  release: CatalogVersion;
}

/** The index entry of exactly `id`@`version`; never a nearby or newer one. */
export function findCatalogRelease(index: CatalogIndex, id: string, version: string): CatalogRelease {
  const extension = index.extensions.find((candidate) => candidate.id === id);
  if (!extension) {
    throw new SvcError({ code: CatalogInstallCodes.extensionNotInCatalog, message: `the catalog has no extension ${id} (see \`svc ext catalog\`)`, details: { id } });
  }
  const release = extension.versions.find((candidate) => candidate.version === version);
  if (!release) {
    throw new SvcError({
      code: CatalogInstallCodes.versionNotInCatalog,
      message: `the catalog has no version ${version} of ${id}; it offers ${extension.versions.map((v) => v.version).join(', ')}`,
      details: { id, version, available: extension.versions.map((v) => v.version) },
    });
  }
  return { extension, release };
}
