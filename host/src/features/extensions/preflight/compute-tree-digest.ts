// The SHA-256 of an installed package tree: every path (sorted by its bytes), its type, and for a file
// its size and content digest. Recorded when a catalog version is installed and checked before each
// load, so code changed after the install (by another extension, a stray script, a person) is noticed
// instead of run. Modes are left out: they say nothing about what the code does.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export async function computeTreeDigest(root: string): Promise<string> {
  const tree = createHash('sha256');
  await visit(root, '', tree);
  return tree.digest('hex');
}

async function visit(root: string, relative: string, tree: ReturnType<typeof createHash>): Promise<void> {
  const names = (await readdir(relative === '' ? root : join(root, relative))).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const name of names) {
    const path = relative === '' ? name : `${relative}/${name}`;
    const full = join(root, path);
    const info = await lstat(full);
    if (info.isDirectory()) {
      tree.update(`d ${JSON.stringify(path)}\n`);
      await visit(root, path, tree);
    } else if (info.isFile()) {
      tree.update(`f ${JSON.stringify(path)} ${info.size} ${await fileDigest(full)}\n`);
    } else if (info.isSymbolicLink()) {
      tree.update(`l ${JSON.stringify(path)} ${JSON.stringify(await readlink(full))}\n`);
    } else {
      tree.update(`o ${JSON.stringify(path)}\n`);
    }
  }
}

async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
