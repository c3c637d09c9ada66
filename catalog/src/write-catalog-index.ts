// Writes index.v1.json and, when keys are given, its detached signature over exactly the written bytes.
// Each signature is verified once before anything is written, so a publisher never uploads a signature
// that a host would refuse.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATALOG_INDEX_FILE, type CatalogIndex } from '@svc-org/extension-format/catalog';
import { CATALOG_SIGNATURE_FILE, type CatalogSignatureFile } from './catalog-signature.js';
import { signCatalogIndex } from './sign-catalog-index.js';

export interface WrittenCatalogIndex {
  indexFile: string;
  /** Absent when the catalog is built without a signing key. */
  signatureFile?: string;
  signature?: CatalogSignatureFile;
}

export async function writeCatalogIndex(outputDir: string, index: CatalogIndex, signingKeys: readonly KeyObject[]): Promise<WrittenCatalogIndex> {
  const bytes = Buffer.from(`${JSON.stringify(index, null, 2)}\n`, 'utf8');
  const indexFile = join(outputDir, CATALOG_INDEX_FILE);
  // A build that selected nothing has written no artifact, so the folder may not exist yet.
  await mkdir(outputDir, { recursive: true });
  if (signingKeys.length === 0) {
    await writeFile(indexFile, bytes);
    return { indexFile };
  }
  const signature = signCatalogIndex(bytes, signingKeys);
  signature.signatures.forEach((entry, i) => {
    if (!verify(null, bytes, createPublicKey(signingKeys[i]!), Buffer.from(entry.signature, 'base64'))) {
      throw new Error(`the signature by key ${entry.keyId} does not verify`);
    }
  });
  const signatureFile = join(outputDir, CATALOG_SIGNATURE_FILE);
  await writeFile(indexFile, bytes);
  await writeFile(signatureFile, `${JSON.stringify(signature, null, 2)}\n`);
  return { indexFile, signatureFile, signature };
}
