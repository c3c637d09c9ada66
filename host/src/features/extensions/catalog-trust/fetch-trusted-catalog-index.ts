// Reads the catalog index and decides whether to trust it. With keys pinned: the signature beside the
// index must verify over the exact bytes with a pinned key (before anything is parsed), the index must
// not have expired and must not be older than the newest one accepted from this URL; only then is its
// version remembered. Without keys the index is taken on its HTTPS URL alone, as before, and says so.
import type { CatalogIndex } from '../install/index.js';
import { fetchCatalogIndex, type FetchCatalogIndexOptions } from '../install/fetch-catalog-index.js';
import type { CatalogIndexVersions } from './catalog-index-versions.js';
import type { CatalogTrust } from './catalog-trust.js';
import { checkIndexFreshness } from './check-index-freshness.js';
import { fetchIndexSignature } from './fetch-index-signature.js';
import type { PinnedCatalogKey } from './parse-catalog-keys.js';
import { verifyIndexSignature } from './verify-index-signature.js';

export interface FetchTrustedCatalogIndexOptions extends FetchCatalogIndexOptions {
  /** Pinned keys; empty: the catalog is unsigned as far as this host is concerned. */
  keys: readonly PinnedCatalogKey[];
  versions: CatalogIndexVersions;
  now?: () => Date;
}

export interface TrustedCatalogIndex {
  index: CatalogIndex;
  trust: CatalogTrust;
}

export async function fetchTrustedCatalogIndex(indexUrl: URL, options: FetchTrustedCatalogIndexOptions): Promise<TrustedCatalogIndex> {
  const { keys, versions, now = () => new Date(), ...fetchOptions } = options;
  if (keys.length === 0) {
    const index = await fetchCatalogIndex(indexUrl, fetchOptions);
    return {
      index,
      trust: { signed: false, ...(index.version === undefined ? {} : { version: index.version }), ...(index.expires === undefined ? {} : { expires: index.expires }) },
    };
  }
  let keyId: string | undefined;
  const index = await fetchCatalogIndex(indexUrl, {
    ...fetchOptions,
    verifyBytes: async (bytes) => {
      const signature = await fetchIndexSignature(indexUrl, { token: fetchOptions.token, ca: fetchOptions.ca, signal: fetchOptions.signal, timeoutMs: fetchOptions.timeoutMs });
      ({ keyId } = verifyIndexSignature(bytes, signature, keys));
    },
  });
  const { version, expires } = checkIndexFreshness(index, now(), versions.highest(indexUrl)?.version);
  versions.accept(indexUrl, version, keyId!);
  return { index, trust: { signed: true, keyId: keyId!, version, expires } };
}
