// The verifier alone: exact bytes, pinned keys only, several signatures for a rotation.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { signCatalogIndex } from '@svc-org/catalog/sign-catalog-index';
import { catalogPublicKeyPin } from '@svc-org/extension-format/catalog';
import { parseCatalogKeys, verifyIndexSignature, type PinnedCatalogKey } from '../../../src/features/extensions/catalog-trust/index.js';

function keyPair(): { privateKey: KeyObject; pinned: PinnedCatalogKey } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, pinned: parseCatalogKeys(catalogPublicKeyPin(publicKey), 'test')[0]! };
}

const oldKey = keyPair();
const newKey = keyPair();
const strangerKey = keyPair();
const index = Buffer.from('{\n  "schemaVersion": 1,\n  "version": 3,\n  "expires": "2099-01-01T00:00:00Z",\n  "extensions": []\n}\n');
const signed = (bytes: Buffer, ...keys: KeyObject[]) => Buffer.from(JSON.stringify(signCatalogIndex(bytes, keys)));

describe('verifyIndexSignature', () => {
  test('accepts the exact bytes signed by a pinned key and names that key', () => {
    expect(verifyIndexSignature(index, signed(index, oldKey.privateKey), [oldKey.pinned])).toEqual({ keyId: oldKey.pinned.keyId });
  });

  test('refuses bytes changed after signing, even by one white-space byte', () => {
    const signature = signed(index, oldKey.privateKey);
    const tampered = Buffer.from(index.toString('utf8').replace('"version": 3', '"version":  3'));
    expect(() => verifyIndexSignature(tampered, signature, [oldKey.pinned])).toThrow(
      expect.objectContaining({ code: 'index_signature_invalid', message: expect.stringContaining('changed after signing') }),
    );
  });

  test('refuses a valid signature by a key that is not pinned', () => {
    expect(() => verifyIndexSignature(index, signed(index, strangerKey.privateKey), [oldKey.pinned, newKey.pinned])).toThrow(
      expect.objectContaining({ code: 'index_signature_invalid', details: { signedBy: [strangerKey.pinned.keyId], pinned: [oldKey.pinned.keyId, newKey.pinned.keyId] } }),
    );
  });

  test('never takes the key id in the file for a key: a stranger claiming a pinned id fails verification', () => {
    const forged = signCatalogIndex(index, [strangerKey.privateKey]);
    forged.signatures[0]!.keyId = oldKey.pinned.keyId;
    expect(() => verifyIndexSignature(index, Buffer.from(JSON.stringify(forged)), [oldKey.pinned])).toThrow(expect.objectContaining({ code: 'index_signature_invalid' }));
  });

  test('rotation: an index signed by the old and the new key passes with either pinned; one by the new key passes when both are pinned', () => {
    const both = signed(index, oldKey.privateKey, newKey.privateKey);
    expect(verifyIndexSignature(index, both, [oldKey.pinned])).toEqual({ keyId: oldKey.pinned.keyId });
    expect(verifyIndexSignature(index, both, [newKey.pinned])).toEqual({ keyId: newKey.pinned.keyId });
    expect(verifyIndexSignature(index, signed(index, newKey.privateKey), [oldKey.pinned, newKey.pinned])).toEqual({ keyId: newKey.pinned.keyId });
    expect(() => verifyIndexSignature(index, signed(index, newKey.privateKey), [oldKey.pinned])).toThrow(expect.objectContaining({ code: 'index_signature_invalid' }));
  });

  test('refuses a signature file that is not JSON, has no signature, or names another algorithm', () => {
    const good = signCatalogIndex(index, [oldKey.privateKey]);
    for (const bytes of [
      Buffer.from('not json'),
      Buffer.from(JSON.stringify({ ...good, signatures: [] })),
      Buffer.from(JSON.stringify({ ...good, algorithm: 'rsa' })),
      Buffer.from(JSON.stringify({ ...good, signatures: [{ ...good.signatures[0], signature: 'AAAA' }] })),
    ]) {
      expect(() => verifyIndexSignature(index, bytes, [oldKey.pinned])).toThrow(expect.objectContaining({ code: 'index_signature_invalid' }));
    }
  });
});
