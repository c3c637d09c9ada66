// Resolves a path a manifest names (entry, config schema) to a real file inside the package. Links
// are followed before the containment test, so a link in the package that points elsewhere is refused.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep, win32 } from 'node:path';

export type PackageFileResolution =
  | { ok: true; path: string }
  | { ok: false; reason: 'absolute' | 'parent-segment' | 'missing' | 'not-a-file' | 'outside'; resolved?: string };

// `C:`, `file:`, `data:` …: anything with a scheme or drive is not a path inside the package.
const SCHEME_OR_DRIVE = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

export async function resolvePackageFile(packageDir: string, target: string): Promise<PackageFileResolution> {
  if (isAbsolute(target) || win32.isAbsolute(target) || SCHEME_OR_DRIVE.test(target)) return { ok: false, reason: 'absolute' };
  if (target.split(/[\\/]/).includes('..')) return { ok: false, reason: 'parent-segment' };

  let root: string;
  let resolved: string;
  try {
    root = await realpath(packageDir);
    resolved = await realpath(join(root, target));
  } catch {
    return { ok: false, reason: 'missing' };
  }
  const rel = relative(root, resolved);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { ok: false, reason: 'outside', resolved };

  const stats = await stat(resolved);
  if (!stats.isFile()) return { ok: false, reason: 'not-a-file', resolved };
  return { ok: true, path: resolved };
}
