// A catalog key is named by a digest of its public key, so the id shown by the build, pinned by a host
// and printed by `svc ext catalog` can be compared by eye and is never chosen by whoever serves the index.
import { createHash, type KeyObject } from 'node:crypto';

/** The first 16 bytes of SHA-256 over the key's SubjectPublicKeyInfo (DER), lowercase hex. */
export function catalogKeyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 32);
}
