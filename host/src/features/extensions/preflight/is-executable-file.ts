import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';

/** A regular file (links followed) that the current user may execute. */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
