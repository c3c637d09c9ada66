// The `$files.*` methods of an integration call: each path passes the call's file guard first.
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { HostContextShape } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import type { IntegrationFileGuard } from './integration-file-guard.js';

export type FileMethods = Pick<HostContextShape, '$files.readText' | '$files.writeText' | '$files.remove'>;

/** Without a guard (not an integration call, or one that declared no files) every path is refused. */
export function callFileMethods(pluginId: string, guard: IntegrationFileGuard | undefined): FileMethods {
  const allowed = async (path: string, access: 'read' | 'write'): Promise<string> => {
    if (!guard) throw new SvcError({ code: 'integration_path_denied', message: `${path}: this call may touch no configuration file`, pluginId });
    return guard.check(path, access);
  };
  return {
    '$files.readText': async (requested) => readTextIfPresent(await allowed(requested, 'read')),
    '$files.writeText': async (requested, text) => writeTextAtomically(await allowed(requested, 'write'), text),
    '$files.remove': async (requested) => removeFileOrEmptyFolder(await allowed(requested, 'write')),
  };
}

async function readTextIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeTextAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.svc-${process.pid}-${Date.now()}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, path);
}

async function removeFileOrEmptyFolder(path: string): Promise<void> {
  try {
    await rm(path, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_FS_EISDIR' && code !== 'EISDIR') throw error;
    // A folder goes only when empty (an integration tidying up the folder its install created).
    await rmdir(path).catch((reason: NodeJS.ErrnoException) => {
      if (reason.code !== 'ENOTEMPTY' && reason.code !== 'EEXIST') throw reason;
    });
  }
}
