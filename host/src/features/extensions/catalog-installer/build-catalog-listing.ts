// What `svc ext catalog` and GET /api/extensions/catalog show: each extension and version the index
// offers, its permissions and compatibility with this host, and what is installed. No URL is part of
// it: artifacts are addressed by id and version only.
import type { Capabilities } from '@svc-org/ai-sdk';
import type { CatalogIndex } from '../install/index.js';
import type { ExtensionRecord, ExtensionSource, ExtensionState } from '../registry/index.js';
import { versionInRange } from '../preflight/version-in-range.js';

export interface CatalogListingVersion {
  version: string;
  permissions: string[];
  compatibility: { svc: string; node: string; cli?: string };
  /** Whether this host and this Node.js satisfy the ranges (the CLI is checked when enabling). */
  compatible: { svc: boolean; node: boolean };
  capabilities: Capabilities;
  size: number;
  sha256: string;
  /** `current`: installed and serving; `pending`: staged, waiting for confirmation; `previous`: what a rollback returns to. */
  installed?: 'current' | 'pending' | 'previous';
}

export interface CatalogListingExtension {
  id: string;
  publisher: string;
  displayName: string;
  description: string;
  installed: { version: string; source: ExtensionSource; state: ExtensionState; pendingVersion?: string; previousVersion?: string } | null;
  versions: CatalogListingVersion[];
}

export interface CatalogListing {
  extensions: CatalogListingExtension[];
}

export function buildCatalogListing(index: CatalogIndex, records: readonly ExtensionRecord[], versions: { host: string; node: string }): CatalogListing {
  const byId = new Map(records.map((record) => [record.id, record]));
  return {
    extensions: index.extensions.map((extension) => {
      const record = byId.get(extension.id);
      const catalog = record?.source === 'catalog' ? record : undefined;
      return {
        id: extension.id,
        publisher: extension.publisher,
        displayName: extension.displayName,
        description: extension.description,
        installed: record
          ? {
              version: record.version,
              source: record.source,
              state: record.state,
              ...(record.pendingVersion ? { pendingVersion: record.pendingVersion } : {}),
              ...(record.previousVersion ? { previousVersion: record.previousVersion } : {}),
            }
          : null,
        versions: extension.versions.map((release) => {
          const installed =
            catalog === undefined ? undefined
            : release.version === catalog.version ? 'current'
            : release.version === catalog.pendingVersion ? 'pending'
            : release.version === catalog.previousVersion ? 'previous'
            : undefined;
          return {
            version: release.version,
            permissions: [...release.permissions],
            compatibility: { ...release.compatibility },
            compatible: {
              svc: versionInRange('svc', versions.host, release.compatibility.svc),
              node: versionInRange('node', versions.node, release.compatibility.node),
            },
            capabilities: release.capabilities,
            size: release.artifact.size,
            sha256: release.artifact.sha256,
            ...(installed ? { installed } : {}),
          } satisfies CatalogListingVersion;
        }),
      };
    }),
  };
}
