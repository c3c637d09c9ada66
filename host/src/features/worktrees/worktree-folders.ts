// A task worktree's folder as git knows it: added, removed (also when moved or repointed by hand), found.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import type { WorktreeContext } from './worktree-context.js';
import { isRegisteredWorktree } from './worktree-git.js';
import type { TaskWorktree } from './worktree-store.js';

export async function addWorktree(wt: WorktreeContext, repo: string, path: string, args: string[]): Promise<void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (existsSync(path)) {
    // Made by an add a kill interrupted after git finished: nothing left to do.
    if (await isRegisteredWorktree(wt, repo, path)) return;
    // A folder git does not know (left half-written, or by hand) is moved out of the way.
    rmSync(path, { recursive: true, force: true });
  }
  await wt.git.run(['worktree', 'add', '--quiet', ...args], repo, { contentFilters: true });
}

export async function removeWorktree(wt: WorktreeContext, repo: string, row: TaskWorktree): Promise<void> {
  if (await isRegisteredWorktree(wt, repo, row.worktreePath)) {
    // git refuses to remove a worktree whose `.git` names another git directory: its folder goes
    // first, then git's record of it, as for a folder removed by hand.
    if (existsSync(row.worktreePath) && isRepointed(wt, row.worktreePath)) rmSync(row.worktreePath, { recursive: true, force: true });
    if (existsSync(row.worktreePath)) await wt.git.run(['worktree', 'remove', '--force', row.worktreePath], repo);
    // A folder removed by hand: drop git's record of this one worktree only.
    else await wt.git.run(['worktree', 'remove', '--force', '--force', row.worktreePath], repo, { okCodes: [128] }).then(async (result) => {
      if (result.exitCode !== 0 && (await isRegisteredWorktree(wt, repo, row.worktreePath))) {
        const admin = await worktreeAdminDir(wt, repo, row.worktreePath);
        if (admin) rmSync(admin, { recursive: true, force: true });
      }
    });
  }
  rmSync(row.worktreePath, { recursive: true, force: true });
}

export function isRepointed(wt: WorktreeContext, path: string): boolean {
  try {
    wt.git.gitDirOf(path);
    return false;
  } catch (error) {
    if (SvcError.hasCode(error) && error.code === 'worktree_git_dir_mismatch') return true;
    throw error;
  }
}

export async function worktreeAdminDir(wt: WorktreeContext, repo: string, path: string): Promise<string | undefined> {
  const common = await wt.git.text(['rev-parse', '--path-format=absolute', '--git-common-dir'], repo);
  const folder = join(common, 'worktrees');
  if (!existsSync(folder)) return undefined;
  for (const name of readdirSync(folder)) {
    try {
      if (readFileSync(join(folder, name, 'gitdir'), 'utf8').trim() === join(path, '.git')) return join(folder, name);
    } catch {
      // not a worktree record
    }
  }
  return undefined;
}

/** The project repository of the task worktree at `path` (as svc recorded it), for the git runner. */
export function repositoryOf(wt: WorktreeContext, path: string): string | undefined {
  const [projectId, taskId, ...rest] = relative(wt.root, path).split(sep);
  if (rest.length > 0 || !taskId || !/^\d+$/.test(taskId)) return undefined;
  const row = wt.store.get(Number(taskId));
  if (!row || String(row.projectId) !== projectId || resolve(row.worktreePath) !== path) return undefined;
  try {
    return wt.options.domain.projects.get(row.projectId).repoPath;
  } catch {
    return undefined;
  }
}
