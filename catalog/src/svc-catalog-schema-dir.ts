// The catalog schemas of the running svc (extensions/catalog/schema/ of its installation), found from
// this module: host/dist/svc.mjs when bundled, catalog/src/ when run from source. A publisher's own
// catalog is checked against the schemas of the svc that builds it, with no checkout of its own.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';
import { INDEX_SCHEMA_FILE } from './load-catalog-schemas.js';

const SCHEMA_DIR = 'extensions/catalog/schema';

/** The folder of the svc installation the catalog schemas are in. */
export function svcInstallationRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, SCHEMA_DIR, INDEX_SCHEMA_FILE))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new SvcError({ code: CatalogErrorCodes.schemaInvalid, message: `the catalog schemas of svc (${SCHEMA_DIR}/) are not found above ${from}; reinstall svc` });
}

export function svcCatalogSchemaDir(from?: string): string {
  return join(svcInstallationRoot(from), SCHEMA_DIR);
}
