import { invalidConfigValue, positiveIntegerValue, type SystemConfigKeys } from '../../../platform/config/index.js';
import { parseCatalogKeys } from '../catalog-trust/parse-catalog-keys.js';
import { parseHttpsUrl } from '../install/parse-https-url.js';
import { catalogIndexUrl } from './catalog-index-url.js';

/** The `svc config` keys of the catalog: where it is and how much may be read from it. */
export const CATALOG_CONFIG_KEYS: SystemConfigKeys = {
  'extensions.catalogUrl': {
    description: 'catalog index URL, https://…/index.v1.json (a base URL is accepted and stored with /index.v1.json appended); SVC_EXTENSION_CATALOG_URL wins',
    normalize(value: string): string {
      const url = parseHttpsUrl(value.trim(), 'extensions.catalogUrl');
      if (url.search !== '' || url.hash !== '') throw invalidConfigValue('extensions.catalogUrl', 'must carry no query or fragment (put credentials in SVC_EXTENSION_CATALOG_TOKEN)');
      // What is stored, and printed, is the index URL svc reads.
      return catalogIndexUrl(url).href;
    },
  },
  'extensions.catalogKeys': {
    description: 'pinned Ed25519 public keys of the catalog (comma-separated, as printed by pnpm extensions:catalog:keygen); the index must be signed by one of them; SVC_EXTENSION_CATALOG_KEYS wins',
    normalize(value: string): string {
      return parseCatalogKeys(value, 'extensions.catalogKeys', 'config_value_invalid').map((key) => key.pin).join(',');
    },
  },
  'extensions.maxIndexBytes': { description: 'bound of the index.v1.json response (default 4 MiB)', normalize: positiveIntegerValue('extensions.maxIndexBytes') },
  'extensions.maxArtifactBytes': { description: 'bound of a compressed artifact (default 32 MiB)', normalize: positiveIntegerValue('extensions.maxArtifactBytes') },
  'extensions.maxUnpackedBytes': { description: 'bound of an artifact once unpacked (default 128 MiB)', normalize: positiveIntegerValue('extensions.maxUnpackedBytes') },
  'extensions.maxEntries': { description: 'bound of files and folders in an artifact (default 5000)', normalize: positiveIntegerValue('extensions.maxEntries') },
};
