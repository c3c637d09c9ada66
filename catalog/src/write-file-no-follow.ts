// Writes a file by name without ever following a symbolic link there: a link (or anything but a
// regular file) at the name is refused, and the bytes go to a new file in the same folder that is then
// renamed over the name (a rename replaces the name itself, never a link's target).
import { randomBytes } from 'node:crypto';
import { lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogErrorCodes } from './catalog-error-codes.js';

export async function writeFileNoFollow(file: string, data: string | Buffer, mode = 0o644): Promise<void> {
  const existing = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing && !existing.isFile()) {
    throw new SvcError({
      code: CatalogErrorCodes.outputIsLink,
      message: `${file} is ${existing.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; svc writes its output only as a file of its own`,
      details: { fix: `remove ${file} or choose another --out folder` },
    });
  }
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  // O_EXCL: a name nobody made, created here, never a link.
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(data);
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
}
