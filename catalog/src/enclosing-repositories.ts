// The git repositories the given paths lie in (a folder holding `.git`, found upward): a signing key
// must lie outside each of them, and outside svc's own. Each path is walked up as written and as it
// really is, so a path through a symbolic link into a repository finds that repository.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { realPathOfFileOrParent } from './real-path-of-file-or-parent.js';

export function enclosingRepositories(paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of paths.flatMap((given) => [resolve(given), realPathOfFileOrParent(resolve(given))])) {
    let dir = resolve(path);
    for (;;) {
      if (existsSync(join(dir, '.git'))) {
        found.add(dir);
        break;
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return [...found];
}
