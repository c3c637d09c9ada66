// Refuses two entries that one filesystem or another would treat as the same path: exact duplicates,
// a file and a folder of one name (also when the folder is only implied by a deeper entry), names that
// differ only in case, in Unicode normalization (NFC/NFD), or in trailing dots and spaces (Windows
// drops them). On a case-insensitive or normalizing filesystem such pairs are how one entry is written
// through another.
import { SvcError } from '@svc-org/ai-sdk';
import { InstallErrorCodes } from './install-error-codes.js';

type Kind = 'file' | 'folder' | 'implied-folder';

export class PathCollisionIndex {
  readonly #seen = new Map<string, { path: string; kind: Kind }>();

  /** `path` is relative to the package root, '/'-separated, without a trailing slash. */
  add(path: string, kind: 'file' | 'folder'): void {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) this.#claim(segments.slice(0, i).join('/'), 'implied-folder', path);
    this.#claim(path, kind, path);
  }

  #claim(path: string, kind: Kind, entry: string): void {
    const key = collisionKey(path);
    const earlier = this.#seen.get(key);
    if (earlier === undefined) {
      this.#seen.set(key, { path, kind });
      return;
    }
    const sameName = earlier.path === path;
    const bothFolders = earlier.kind !== 'file' && kind !== 'file';
    // A folder implied by one entry and named by another (in either order) is the one folder; a folder
    // named twice, or anything involving a file, is a collision.
    if (sameName && bothFolders && (earlier.kind === 'implied-folder' || kind === 'implied-folder')) {
      if (kind === 'folder') this.#seen.set(key, { path, kind });
      return;
    }
    const why = !sameName
      ? `collides with "${earlier.path}": they differ only in ${difference(earlier.path, path)}`
      : earlier.kind === 'file' && kind === 'file'
        ? 'appears twice'
        : bothFolders
          ? 'appears twice'
          : 'is both a file and a folder';
    throw new SvcError({
      code: InstallErrorCodes.artifactPathCollision,
      message: `artifact entry "package/${entry}": "${path}" ${why}`,
      details: { entry: `package/${entry}`, path, earlier: earlier.path },
    });
  }
}

function difference(a: string, b: string): string {
  if (a.normalize('NFC') === b.normalize('NFC')) return 'Unicode normalization (NFC/NFD)';
  if (a.normalize('NFC').toUpperCase().toLowerCase() === b.normalize('NFC').toUpperCase().toLowerCase()) return 'letter case';
  return 'trailing dots or spaces, or case and normalization together';
}

function collisionKey(path: string): string {
  return path
    .normalize('NFC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC')
    .split('/')
    .map((segment) => segment.replace(/[. ]+$/, ''))
    .join('/');
}
