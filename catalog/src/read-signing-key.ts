// Reads the Ed25519 private key the build signs the index with. The key lives outside every repository
// and is readable by its owner only (as ssh demands of its keys), so a leaked checkout or a shared
// build machine does not leak the power to publish.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogSigningErrorCodes } from './catalog-signing-error-codes.js';
import { checkKeyOutsideRepositories } from './check-key-outside-repositories.js';

export async function readSigningKey(file: string, repositories: readonly string[]): Promise<KeyObject> {
  checkKeyOutsideRepositories(file, repositories);
  let pem: string;
  try {
    const info = await stat(file);
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
      throw new SvcError({
        code: CatalogSigningErrorCodes.signingKeyExposed,
        message: `the catalog key ${file} is readable by others (mode ${(info.mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
      });
    }
    pem = await readFile(file, 'utf8');
  } catch (cause) {
    if (SvcError.isInstance(cause)) throw cause;
    throw new SvcError({ code: CatalogSigningErrorCodes.signingKeyInvalid, message: `the catalog key ${file} cannot be read: ${(cause as Error).message}` });
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    // Node's message may quote the file's content; the key is never echoed.
    throw new SvcError({ code: CatalogSigningErrorCodes.signingKeyInvalid, message: `the catalog key ${file} is not a PEM private key (make one with pnpm extensions:catalog:keygen)` });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new SvcError({
      code: CatalogSigningErrorCodes.signingKeyInvalid,
      message: `the catalog key ${file} is a ${key.asymmetricKeyType ?? 'unknown'} key; catalogs are signed with Ed25519 (make one with pnpm extensions:catalog:keygen)`,
    });
  }
  return key;
}
