// Signs the exact bytes of index.v1.json with every given Ed25519 private key (node:crypto, no
// prehash: Ed25519 hashes internally), one signature per key.
import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import { catalogKeyId } from '@svc-org/extension-format/catalog';
import type { CatalogSignatureFile } from './catalog-signature.js';

export function signCatalogIndex(indexBytes: Uint8Array, privateKeys: readonly KeyObject[]): CatalogSignatureFile {
  return {
    schemaVersion: 1,
    algorithm: 'ed25519',
    signatures: privateKeys.map((key) => ({
      keyId: catalogKeyId(createPublicKey(key)),
      signature: sign(null, indexBytes, key).toString('base64'),
    })),
  };
}
