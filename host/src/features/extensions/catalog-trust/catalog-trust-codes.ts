// Stable snake_case codes of catalog index authentication. Each refusal leaves everything as it was:
// nothing is downloaded, installed or remembered. Adding a code is fine; renaming one breaks users' scripts.
export const CatalogTrustCodes = {
  /** No signature, a malformed one, one by a key that is not pinned, or one that does not match the index bytes. */
  signatureInvalid: 'index_signature_invalid',
  /** The index `version` is lower than the highest this host accepted from the same catalog URL. */
  rollback: 'index_rollback',
  /** The index `expires` time has passed. */
  expired: 'index_expired',
  /** SVC_EXTENSION_CATALOG_KEYS (or a stored extensions.catalogKeys) is not a list of Ed25519 public keys. */
  keysInvalid: 'catalog_keys_invalid',
} as const;

export type CatalogTrustCode = (typeof CatalogTrustCodes)[keyof typeof CatalogTrustCodes];
