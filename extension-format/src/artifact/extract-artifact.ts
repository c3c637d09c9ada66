// Extracts an artifact into an empty staging folder in one pass over the archive: every check of an
// entry (walkArtifact) runs before that entry is written, and a refusal at any later entry (or at the
// end, e.g. no package.json) removes everything written so far, so a refused archive leaves staging
// empty (or removed, if this call created it). Files are created exclusively (never through an
// existing path or link) with mode 0644, folders 0755, owned by us.
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rm } from 'node:fs/promises';
import { join, posix, resolve, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { inflateArtifact } from './inflate-artifact.js';
import { verifyFileDigest, type ArtifactReadOptions } from './inspect-artifact.js';
import { resolveInstallBounds } from './install-bounds.js';
import { InstallErrorCodes } from './install-error-codes.js';
import { walkArtifact, type ArtifactInspection } from './walk-artifact.js';
import { BatchedWrites } from './batched-writes.js';

const FILE_MODE = 0o644;
const FOLDER_MODE = 0o755;
const CREATE_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export async function extractArtifact(tgzFile: string, stagingDir: string, options: ArtifactReadOptions = {}): Promise<ArtifactInspection> {
  const bounds = resolveInstallBounds(options);
  if (options.sha256 !== undefined) await verifyFileDigest(tgzFile, options.sha256);

  const root = resolve(stagingDir);
  const createdRoot = (await mkdir(root, { recursive: true, mode: FOLDER_MODE })) !== undefined;
  if ((await readdir(root)).length > 0) {
    throw new SvcError({ code: InstallErrorCodes.stagingNotEmpty, message: `staging folder ${root} is not empty` });
  }
  const made = new Set<string>(['']);
  const makeFolder = async (path: string): Promise<void> => {
    if (made.has(path)) return;
    await makeFolder(parentOf(path));
    const target = inside(root, path);
    await mkdir(target, { mode: FOLDER_MODE });
    await chmod(target, FOLDER_MODE);
    made.add(path);
  };

  let umaskStripsFileMode: boolean | undefined;
  try {
    return await walkArtifact(inflateArtifact(tgzFile, bounds), bounds, async (entry, body) => {
      if (entry.type === 'directory') return makeFolder(entry.path);
      await makeFolder(parentOf(entry.path));
      const handle = await open(inside(root, entry.path), CREATE_FILE, FILE_MODE);
      try {
        const writes = new BatchedWrites(handle);
        for await (const chunk of body) await writes.add(chunk);
        await writes.flush();
        // The umask can only take bits away from the mode a file is created with: the first file shows
        // whether it does, and only then is every file's mode set again.
        umaskStripsFileMode ??= ((await handle.stat()).mode & 0o777) !== FILE_MODE;
        if (umaskStripsFileMode) await handle.chmod(FILE_MODE);
      } finally {
        await handle.close();
      }
    });
  } catch (error) {
    if (createdRoot) await rm(root, { recursive: true, force: true });
    else for (const name of await readdir(root)) await rm(join(root, name), { recursive: true, force: true });
    throw error;
  }
}

function parentOf(path: string): string {
  const parent = posix.dirname(path);
  return parent === '.' ? '' : parent;
}

/** Defense in depth: the checks already refused every path that could leave the root. */
function inside(root: string, path: string): string {
  const target = resolve(root, ...path.split('/'));
  if (!target.startsWith(root + sep)) {
    throw new SvcError({ code: InstallErrorCodes.artifactUnsafePath, message: `artifact entry "package/${path}" resolves outside staging` });
  }
  return target;
}
