// A private catalog key must never be a file of a repository: not of the one being built, not of this
// one. Checked on real paths, so a symbolic link into a repository counts as inside it.
import { isAbsolute, relative, resolve } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogSigningErrorCodes } from './catalog-signing-error-codes.js';
import { realPathOfFileOrParent } from './real-path-of-file-or-parent.js';

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
