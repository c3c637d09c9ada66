// Removes a folder that may be read-only (an installed version): folders are made writable first, as
// `rm -rf` alone cannot unlink entries of a 0555 folder for a non-root user. A tree that is already
// gone, or that another process removes meanwhile, is not an error.
import { chmod, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export async function removeTree(path: string): Promise<void> {
  await makeWritable(path);
  await rm(path, { recursive: true, force: true });
}

async function makeWritable(path: string): Promise<void> {
  try {
    await chmod(path, 0o755);
    for (const entry of await readdir(path, { withFileTypes: true })) {
      if (entry.isDirectory()) await makeWritable(join(path, entry.name));
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
}
