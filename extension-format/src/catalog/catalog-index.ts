// The shape of index.v1.json; its schema is extensions/catalog/schema/index.v1.schema.json, which both
// the catalog build (before writing) and the host (after fetching) validate against.
import type { Capabilities } from '@svc-org/ai-sdk';

export const CATALOG_INDEX_FILE = 'index.v1.json';

export interface CatalogArtifact {
  /** `<base-url>/artifacts/<id>/<version>/<id>-<version>.tgz` */
  url: string;
  /** SHA-256 of the .tgz bytes, lowercase hex. */
  sha256: string;
  /** The same digest as an SRI string (`sha256-<base64>`). */
  integrity: string;
  /** Byte size of the .tgz. */
  size: number;
}

export interface CatalogVersion {
  version: string;
  permissions: string[];
  compatibility: { svc: string; node: string; cli?: string };
  capabilities: Capabilities;
  artifact: CatalogArtifact;
}

export interface CatalogExtension {
  id: string;
  publisher: string;
  displayName: string;
  description: string;
  /** Newest first. */
  versions: CatalogVersion[];
}

export interface CatalogIndex {
  schemaVersion: 1;
  /** Grows with every publication (default: the build's Unix time in seconds); written by every build. */
  version?: number;
  /** `YYYY-MM-DDTHH:MM:SSZ`; a host that pins keys refuses the index after it. Written by every build. */
  expires?: string;
  /** Sorted by id. */
  extensions: CatalogExtension[];
}
