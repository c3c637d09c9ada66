// A private catalog key must never be a file of a repository: not of the one being built, not of this
// one. Checked on real paths, so a symbolic link into a repository counts as inside it.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogSigningErrorCodes } from './catalog-signing-error-codes.js';

export function checkKeyOutsideRepositories(keyFile: string, repositories: readonly string[]): void {
  const key = realPathOfFileOrParent(resolve(keyFile));
  for (const repository of repositories) {
    const root = realPathOfFileOrParent(resolve(repository));
    const rel = relative(root, key);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
      throw new SvcError({
        code: CatalogSigningErrorCodes.signingKeyInRepository,
        message: `the catalog key ${keyFile} is inside the repository ${repository}; keep private keys outside every repository (e.g. ~/.config/svc-catalog/)`,
      });
    }
  }
}

/** The real path of a file, or of its nearest existing parent joined with the rest (a file the keygen is about to write). */
function realPathOfFileOrParent(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(realPathOfFileOrParent(parent), relative(parent, path));
  }
}
