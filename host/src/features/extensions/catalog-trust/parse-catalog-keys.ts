// The catalog keys a host pins: Ed25519 public keys, each as the base64 of its SubjectPublicKeyInfo
// (the one-line body of the `.pub` PEM the keygen writes; the PEM itself is accepted too), separated
// by commas or white space. Several keys pin a rotation: an index signed by any of them is accepted.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { SvcError } from '@svc-org/ai-sdk';
import { catalogKeyId, catalogPublicKeyPin } from '@svc-org/extension-format/catalog';
import { CatalogTrustCodes } from './catalog-trust-codes.js';

export interface PinnedCatalogKey {
  keyId: string;
  /** The one-line form, as stored. */
  pin: string;
  publicKey: KeyObject;
}

const ARMOR = /-----(BEGIN|END) PUBLIC KEY-----/g;
const MAX_KEYS = 16;

/** `source` names where the value came from (a config key or a variable); errors carry `code` (default catalog_keys_invalid). */
export function parseCatalogKeys(value: string, source: string, code: string = CatalogTrustCodes.keysInvalid): PinnedCatalogKey[] {
  const entries = value.replace(ARMOR, ' ').split(/[\s,]+/).filter((entry) => entry !== '');
  const invalid = (rule: string) => new SvcError({ code, message: `${source} ${rule}`, details: { key: source } });
  if (entries.length === 0) throw invalid('holds no key');
  if (entries.length > MAX_KEYS) throw invalid(`holds more than ${MAX_KEYS} keys`);
  const keys: PinnedCatalogKey[] = [];
  for (const [i, entry] of entries.entries()) {
    let publicKey: KeyObject | undefined;
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(entry)) {
      try {
        publicKey = createPublicKey({ key: Buffer.from(entry, 'base64'), format: 'der', type: 'spki' });
      } catch {
        publicKey = undefined;
      }
    }
    if (publicKey === undefined || publicKey.asymmetricKeyType !== 'ed25519') {
      throw invalid(`entry ${i + 1} is not an Ed25519 public key (base64 of its SubjectPublicKeyInfo, as printed by pnpm extensions:catalog:keygen)`);
    }
    const keyId = catalogKeyId(publicKey);
    if (!keys.some((key) => key.keyId === keyId)) keys.push({ keyId, pin: catalogPublicKeyPin(publicKey), publicKey });
  }
  return keys;
}
