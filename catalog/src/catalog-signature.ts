// The detached signature published beside index.v1.json. It signs the exact bytes of the index file as
// served (no canonical JSON to agree on), so a host verifies before it parses anything. It may carry
// several signatures: during a key rotation the index is signed with the old and the new key, and a
// host that pins either one accepts it.
export const CATALOG_SIGNATURE_FILE = 'index.v1.json.sig';

export interface CatalogIndexSignature {
  /** catalogKeyId of the public key (a hint: the host verifies with the key it pinned under this id). */
  keyId: string;
  /** Ed25519 signature of the index bytes, base64. */
  signature: string;
}

export interface CatalogSignatureFile {
  schemaVersion: 1;
  algorithm: 'ed25519';
  signatures: CatalogIndexSignature[];
}
