// The index is what a person reads before installing (`svc ext catalog`); the manifest is what the
// enable prompt asks for. A release whose two lists differ is refused: one of them is not telling the truth.
import type { Manifest } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import type { CatalogVersion } from '../install/index.js';
import { CatalogInstallCodes } from './catalog-install-codes.js';

export function checkIndexPermissions(id: string, release: Pick<CatalogVersion, 'version' | 'permissions'>, manifest: Pick<Manifest, 'permissions'>): void {
  const listed = [...new Set(release.permissions)].sort();
  const requested = [...new Set(manifest.permissions)].sort();
  if (listed.length === requested.length && listed.every((name, i) => name === requested[i])) return;
  throw new SvcError({
    code: CatalogInstallCodes.indexManifestMismatch,
    message: `the catalog lists ${id} ${release.version} with the permissions ${listed.join(', ') || '(none)'}, but its artifact requests ${requested.join(', ') || '(none)'}`,
    details: { id, version: release.version, index: listed, manifest: requested },
  });
}
