// Extracts an artifact into an empty staging folder, only after inspecting all of it. The second pass
// replays the inflated bytes the inspection read (or, for a large artifact, inflates the file again),
// re-runs every check and must meet exactly the entries the first pass approved; files are created
// exclusively (never through an existing path or link) with mode 0644, folders 0755, owned by us. On
// any failure the staging folder is left empty (or removed, if this call created it).
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rm } from 'node:fs/promises';
import { join, posix, resolve, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { inflateArtifact } from './inflate-artifact.js';
import { inspectArtifact, type ArtifactReadOptions } from './inspect-artifact.js';
import { resolveInstallBounds } from './install-bounds.js';
import { InstallErrorCodes } from './install-error-codes.js';
import { ReplayBuffer } from './replay-buffer.js';
import { walkArtifact, type ArtifactInspection } from './walk-artifact.js';

const FILE_MODE = 0o644;
const FOLDER_MODE = 0o755;
/** Artifacts that inflate to more than this are inflated a second time instead of kept in memory. */
const REPLAY_LIMIT_BYTES = 32 * 1024 * 1024;
const CREATE_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export async function extractArtifact(tgzFile: string, stagingDir: string, options: ArtifactReadOptions = {}): Promise<ArtifactInspection> {
  const bounds = resolveInstallBounds(options);
  const replay = new ReplayBuffer(REPLAY_LIMIT_BYTES);
  const plan = await inspectArtifact(tgzFile, options, replay);

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

  let next = 0;
  try {
    await walkArtifact(replay.replay() ?? inflateArtifact(tgzFile, bounds), bounds, async (entry, body) => {
      const approved = plan.entries[next++];
      if (approved?.path !== entry.path || approved.type !== entry.type || approved.size !== entry.size) throw changed();
      if (entry.type === 'directory') return makeFolder(entry.path);
      await makeFolder(parentOf(entry.path));
      const handle = await open(inside(root, entry.path), CREATE_FILE, FILE_MODE);
      try {
        for await (const chunk of body) {
          for (let offset = 0; offset < chunk.length; ) offset += (await handle.write(chunk, offset)).bytesWritten;
        }
        await handle.chmod(FILE_MODE);
      } finally {
        await handle.close();
      }
    });
    if (next !== plan.entries.length) throw changed();
    return plan;
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

function changed(): SvcError {
  return new SvcError({
    code: InstallErrorCodes.artifactInvalidMetadata,
    message: 'the artifact changed between inspection and extraction',
  });
}
