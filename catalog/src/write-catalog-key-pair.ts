// Makes an Ed25519 key pair for signing a catalog: `<prefix>.key` (PKCS#8 PEM, mode 0600, never
// overwritten) and `<prefix>.pub` (SPKI PEM). What a host pins is the public key's one-line form.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { catalogKeyId, catalogPublicKeyPin } from '@svc-org/extension-format/catalog';
import { CatalogSigningErrorCodes } from './catalog-signing-error-codes.js';
import { checkKeyOutsideRepositories } from './check-key-outside-repositories.js';

export interface WrittenCatalogKeyPair {
  privateKeyFile: string;
  publicKeyFile: string;
  keyId: string;
  /** The value for `extensions.catalogKeys` / SVC_EXTENSION_CATALOG_KEYS. */
  pin: string;
}

export async function writeCatalogKeyPair(prefix: string, repositories: readonly string[]): Promise<WrittenCatalogKeyPair> {
  const privateKeyFile = `${prefix}.key`;
  const publicKeyFile = `${prefix}.pub`;
  checkKeyOutsideRepositories(privateKeyFile, repositories);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await mkdir(dirname(privateKeyFile), { recursive: true, mode: 0o700 });
  let handle;
  try {
    // O_EXCL with the mode set at creation: the key is never readable by others, not even for a moment.
    handle = await open(privateKeyFile, 'wx', 0o600);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new SvcError({ code: CatalogSigningErrorCodes.keyFileExists, message: `${privateKeyFile} exists; a key is never overwritten (choose another --out)` });
    }
    throw cause;
  }
  try {
    await handle.writeFile(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  } finally {
    await handle.close();
  }
  await writeFile(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }) as string, { mode: 0o644 });
  return { privateKeyFile, publicKeyFile, keyId: catalogKeyId(publicKey), pin: catalogPublicKeyPin(publicKey) };
}
