// Verifies the detached signature (index.v1.json.sig) over the exact index bytes with the pinned keys.
// Only a signature under the id of a pinned key is checked, and only with that pinned key: the id in
// the file is a hint, never a key. Runs before the index is parsed.
import { verify } from 'node:crypto';
import { z } from 'zod';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogTrustCodes } from './catalog-trust-codes.js';
import type { PinnedCatalogKey } from './parse-catalog-keys.js';

const SignatureFile = z
  .object({
    schemaVersion: z.literal(1),
    algorithm: z.literal('ed25519'),
    signatures: z
      .array(z.object({ keyId: z.string().regex(/^[0-9a-f]{32}$/), signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/) }).strict())
      .min(1)
      .max(16),
  })
  .strict();

export function verifyIndexSignature(indexBytes: Uint8Array, signatureBytes: Uint8Array, keys: readonly PinnedCatalogKey[]): { keyId: string } {
  const invalid = (message: string, details?: Record<string, unknown>) => new SvcError({ code: CatalogTrustCodes.signatureInvalid, message, ...(details ? { details } : {}) });
  let parsed: z.infer<typeof SignatureFile>;
  try {
    parsed = SignatureFile.parse(JSON.parse(Buffer.from(signatureBytes).toString('utf8')));
  } catch {
    throw invalid('the catalog index signature (index.v1.json.sig) is not a valid signature file: expected { schemaVersion: 1, algorithm: "ed25519", signatures: [{ keyId, signature }] }');
  }
  const failed: string[] = [];
  for (const entry of parsed.signatures) {
    const key = keys.find((pinned) => pinned.keyId === entry.keyId);
    if (key === undefined) continue;
    if (verify(null, indexBytes, key.publicKey, Buffer.from(entry.signature, 'base64'))) return { keyId: key.keyId };
    failed.push(entry.keyId);
  }
  const signedBy = parsed.signatures.map((entry) => entry.keyId);
  const pinned = keys.map((key) => key.keyId);
  if (failed.length > 0) {
    throw invalid(
      `the catalog index does not match its signature by pinned key ${failed.join(', ')}: it was changed after signing; nothing was installed`,
      { signedBy, pinned },
    );
  }
  throw invalid(`the catalog index is signed by key ${signedBy.join(', ')}, which is not pinned on this host (pinned: ${pinned.join(', ')}); nothing was installed`, {
    signedBy,
    pinned,
  });
}
