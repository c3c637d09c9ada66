// How a public catalog key is written where a host pins it (`extensions.catalogKeys`,
// SVC_EXTENSION_CATALOG_KEYS): the base64 of its SubjectPublicKeyInfo DER, one line without armor —
// the body of the `.pub` PEM file the keygen writes.
import type { KeyObject } from 'node:crypto';

export function catalogPublicKeyPin(publicKey: KeyObject): string {
  return publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}
