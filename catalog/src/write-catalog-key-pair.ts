// Makes an Ed25519 key pair for signing a catalog: `<prefix>.key` (PKCS#8 PEM, mode 0600) and
// `<prefix>.pub` (SPKI PEM), neither ever overwritten nor written through a link. What a host pins is
// the public key's one-line form.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
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
  // O_EXCL with the mode set at creation: the key is never readable by others, not even for a moment;
  // and neither file is opened through a symbolic link (O_EXCL refuses any name that exists, a link too).
  const keyHandle = await createExclusive(privateKeyFile, 0o600);
  let pubHandle: FileHandle;
  try {
    pubHandle = await createExclusive(publicKeyFile, 0o644);
  } catch (error) {
    await keyHandle.close();
    await rm(privateKeyFile, { force: true });
    throw error;
  }
  try {
    await keyHandle.writeFile(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    await pubHandle.writeFile(publicKey.export({ type: 'spki', format: 'pem' }) as string);
  } finally {
    await keyHandle.close();
    await pubHandle.close();
  }
  return { privateKeyFile, publicKeyFile, keyId: catalogKeyId(publicKey), pin: catalogPublicKeyPin(publicKey) };
}

async function createExclusive(file: string, mode: number): Promise<FileHandle> {
  try {
    return await open(file, 'wx', mode);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new SvcError({ code: CatalogSigningErrorCodes.keyFileExists, message: `${file} exists (a file or a link); a key file is never overwritten (choose another --out)` });
    }
    throw cause;
  }
}
