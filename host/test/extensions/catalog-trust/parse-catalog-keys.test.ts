import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { catalogKeyId } from '@svc-org/extension-format/catalog';
import { parseCatalogKeys } from '../../../src/features/extensions/catalog-trust/index.js';

const a = generateKeyPairSync('ed25519').publicKey;
const b = generateKeyPairSync('ed25519').publicKey;
const pin = (key: typeof a) => key.export({ type: 'spki', format: 'der' }).toString('base64');

describe('parseCatalogKeys', () => {
  test('reads one-line keys separated by commas or white space, and PEM, dropping duplicates', () => {
    const pem = a.export({ type: 'spki', format: 'pem' }) as string;
    const keys = parseCatalogKeys(`${pem}\n ${pin(b)}, ${pin(a)}`, 'SVC_EXTENSION_CATALOG_KEYS');
    expect(keys.map((key) => key.keyId)).toEqual([catalogKeyId(a), catalogKeyId(b)]);
    expect(keys.map((key) => key.pin)).toEqual([pin(a), pin(b)]);
  });

  test('refuses an entry that is not an Ed25519 public key, naming its position and the source', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
    for (const value of [`${pin(a)},${pin(ec)}`, `${pin(a)} not-base64!`, `${pin(a)} AAAA`, ' , ']) {
      expect(() => parseCatalogKeys(value, 'SVC_EXTENSION_CATALOG_KEYS'), value).toThrow(
        expect.objectContaining({ code: 'catalog_keys_invalid', message: expect.stringMatching(/^SVC_EXTENSION_CATALOG_KEYS (entry 2 is not an Ed25519 public key|holds no key)/) }),
      );
    }
  });
});
