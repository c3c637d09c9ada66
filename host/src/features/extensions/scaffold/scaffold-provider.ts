// `svc ext new`: a provider package that builds, passes its own test against the SDK's test host and
// registers in developer mode as it is.
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { addWorkspaceImporter } from './add-workspace-importer.js';
import { findProviderWorkspace } from './find-provider-workspace.js';
import { locateSvcCheckout, type SvcCheckout } from './locate-svc-checkout.js';
import { nextSteps, workspaceNextSteps } from './next-steps.js';
import { scaffoldFiles } from './scaffold-files.js';
import { scaffoldNames, type ScaffoldNames } from './scaffold-names.js';
import { parseScaffoldRequest } from './scaffold-request.js';
import { writeScaffold } from './write-scaffold.js';
import { WORKSPACE_LOCKFILE_COMMAND, workspaceScaffoldFiles } from './workspace-scaffold-files.js';

export interface ScaffoldInput {
  name: string;
  /** Folder the package folder is created in; relative to `cwd`. */
  dir?: string;
  publisher?: string;
  /** Executable name of the CLI; defaults to the provider name. */
  command?: string;
  cwd: string;
}

export interface ScaffoldResult {
  /** Absolute path of the new package folder. */
  dir: string;
  names: ScaffoldNames;
  /** Paths written, relative to `dir`. */
  files: string[];
  nextSteps: string[];
  /**
   * `standalone`: a package of its own that installs offline from what this machine has; `workspace`:
   * a package of the svc repository it was made in (extensions/cli-providers/), like the official ones.
   */
  home: 'standalone' | 'workspace';
  /** In a workspace: the one command, run at the repository root, that records the package in its lockfile. */
  lockfileCommand?: string;
  /** In a workspace: the repository's lockfile, when the package's entry was added to it. */
  lockfileRecorded?: string;
}

export const DEFAULT_PUBLISHER = 'local';

export async function scaffoldProvider(input: ScaffoldInput, checkout: () => SvcCheckout = locateSvcCheckout): Promise<ScaffoldResult> {
  const request = parseScaffoldRequest({
    name: input.name,
    publisher: input.publisher ?? DEFAULT_PUBLISHER,
    command: input.command ?? input.name,
    parentDir: resolve(input.cwd, input.dir ?? '.'),
  });
  const names = scaffoldNames(request);
  const dir = join(request.parentDir, request.name);
  const workspace = findProviderWorkspace(request.parentDir);
  if (workspace !== undefined) {
    const files = workspaceScaffoldFiles(names, request.name);
    await writeScaffold(dir, files);
    const lockfileRecorded = await recordInWorkspaceLockfile(workspace.root, dir);
    return {
      dir,
      names,
      files: Object.keys(files),
      nextSteps: workspaceNextSteps(names, dir, workspace.root, lockfileRecorded ? WORKSPACE_LOCKFILE_COMMAND : 'pnpm install'),
      home: 'workspace',
      lockfileCommand: lockfileRecorded ? WORKSPACE_LOCKFILE_COMMAND : 'pnpm install',
      ...(lockfileRecorded ? { lockfileRecorded: 'pnpm-lock.yaml' } : {}),
    };
  }
  const files = scaffoldFiles(names, checkout(), dir);
  await writeScaffold(dir, files);
  return { dir, names, files: Object.keys(files), nextSteps: nextSteps(names, dir), home: 'standalone' };
}

/** Adds the package's entry to the repository's pnpm-lock.yaml; false when there is none to add it to. */
async function recordInWorkspaceLockfile(root: string, dir: string): Promise<boolean> {
  const file = join(root, 'pnpm-lock.yaml');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  const updated = addWorkspaceImporter(text, root, dir, join(root, 'sdk'));
  if (updated === undefined) return false;
  if (updated !== text) await writeFile(file, updated);
  return true;
}
