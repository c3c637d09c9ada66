// Writes a scaffold all at once: the files go into a hidden sibling folder that is renamed into place,
// so a failure half-way never leaves a half-made package, and a folder that gained files meanwhile
// is refused by the rename itself rather than overwritten.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { ScaffoldCodes } from './scaffold-codes.js';

function targetExists(target: string, what: string): SvcError {
  return new SvcError({
    code: ScaffoldCodes.targetExists,
    message: `${target} ${what}; svc ext new only creates a new package folder`,
    details: { fix: 'Pick another name, pass --dir <another parent folder>, or remove the folder first' },
  });
}

async function refuseOccupied(target: string): Promise<void> {
  const info = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!info) return;
  if (!info.isDirectory()) throw targetExists(target, 'exists and is not a folder');
  if ((await readdir(target)).length > 0) throw targetExists(target, 'exists and is not empty');
}

export async function writeScaffold(target: string, files: Record<string, string>): Promise<void> {
  await refuseOccupied(target);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  // mkdir (not mkdtemp, which makes it 0700) so the package folder gets the user's usual mode.
  const staging = join(parent, `.${basename(target)}-scaffold-${randomUUID().slice(0, 8)}`);
  await mkdir(staging);
  try {
    for (const [path, text] of Object.entries(files)) {
      const file = join(staging, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
    // rename(2) replaces an empty folder and fails on a non-empty one.
    await rename(staging, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTEMPTY' || error.code === 'EEXIST' || error.code === 'ENOTDIR') throw targetExists(target, 'appeared while the scaffold was written');
      throw error;
    });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
