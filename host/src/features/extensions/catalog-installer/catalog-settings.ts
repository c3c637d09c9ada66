// Where the catalog is and how much may be read from it, read on the server side only: the index URL
// from SVC_EXTENSION_CATALOG_URL, else the system-config key extensions.catalogUrl; the bearer token
// from SVC_EXTENSION_CATALOG_TOKEN (never stored, never shown); the pinned public keys from
// SVC_EXTENSION_CATALOG_KEYS, else extensions.catalogKeys; bounds from system config.
import { SvcError } from '@svc-org/ai-sdk';
import { parseCatalogKeys, type PinnedCatalogKey } from '../catalog-trust/parse-catalog-keys.js';
import { parseHttpsUrl } from '../install/parse-https-url.js';
import { resolveInstallBounds, DEFAULT_INSTALL_BOUNDS, type InstallBounds } from '@svc-org/extension-format/artifact';
import { CatalogInstallCodes } from './catalog-install-codes.js';
import { catalogIndexUrl } from './catalog-index-url.js';

export const CATALOG_URL_ENV = 'SVC_EXTENSION_CATALOG_URL';
export const CATALOG_TOKEN_ENV = 'SVC_EXTENSION_CATALOG_TOKEN';
export const CATALOG_URL_KEY = 'extensions.catalogUrl';
export const CATALOG_KEYS_ENV = 'SVC_EXTENSION_CATALOG_KEYS';
export const CATALOG_KEYS_KEY = 'extensions.catalogKeys';

export interface CatalogSettings {
  /** The URL of index.v1.json. */
  indexUrl: URL;
  /** Where it came from, for messages. */
  indexUrlSource: 'env' | 'config';
  token?: string;
  /** Pinned catalog keys; empty when none is configured (the index is then not authenticated). */
  keys: PinnedCatalogKey[];
  bounds: InstallBounds;
}

export function resolveCatalogSettings(env: NodeJS.ProcessEnv, readConfig: (key: string) => string | undefined): CatalogSettings {
  const fromEnv = env[CATALOG_URL_ENV]?.trim();
  const raw = fromEnv || readConfig(CATALOG_URL_KEY)?.trim();
  if (!raw) {
    throw new SvcError({
      code: CatalogInstallCodes.catalogNotConfigured,
      message: `no extension catalog is configured: set ${CATALOG_URL_ENV} or run \`svc config set ${CATALOG_URL_KEY} <index URL>\``,
    });
  }
  // Both the index URL and the publication base URL the catalog was built for are accepted.
  const url = catalogIndexUrl(parseHttpsUrl(raw, fromEnv ? CATALOG_URL_ENV : CATALOG_URL_KEY));
  const token = env[CATALOG_TOKEN_ENV];
  // An empty variable does not unpin the configured keys: only `svc config unset` does.
  const keysFromEnv = env[CATALOG_KEYS_ENV]?.trim();
  const rawKeys = keysFromEnv || readConfig(CATALOG_KEYS_KEY)?.trim();
  return {
    indexUrl: url,
    indexUrlSource: fromEnv ? 'env' : 'config',
    ...(token !== undefined && token !== '' ? { token } : {}),
    keys: rawKeys ? parseCatalogKeys(rawKeys, keysFromEnv ? CATALOG_KEYS_ENV : CATALOG_KEYS_KEY) : [],
    bounds: resolveInstallBounds(readBounds(readConfig)),
  };
}

function readBounds(readConfig: (key: string) => string | undefined): Partial<InstallBounds> {
  const bounds: Partial<InstallBounds> = {};
  for (const name of Object.keys(DEFAULT_INSTALL_BOUNDS) as Array<keyof InstallBounds>) {
    const raw = readConfig(`extensions.${name}`);
    if (raw !== undefined && raw.trim() !== '') bounds[name] = Number(raw);
  }
  return bounds;
}
