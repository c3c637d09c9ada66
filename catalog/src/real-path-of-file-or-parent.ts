// The real path of a file that may not exist yet: its nearest existing parent resolved through every
// symbolic link, joined with the rest. What the catalog commands compare and walk up from.
import { realpathSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

export function realPathOfFileOrParent(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(realPathOfFileOrParent(parent), relative(parent, path));
  }
}
