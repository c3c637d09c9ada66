// Where a task's CLI runs: its worktree, made on the first start (with `.worktreeinclude` copies and the
// project's set-up command) or re-attached to its branch, else the project folder.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import type { TaskRecord } from '../domain/index.js';
import { isolationOf } from './project-isolation.js';
import { runSetupCommand } from './run-setup-command.js';
import type { WorktreeContext } from './worktree-context.js';
import { addWorktree, removeWorktree } from './worktree-folders.js';
import { currentBranchOrRefuse, discardingPath, hasBranch, isRegisteredWorktree, refOf, requireBranch, unmergedCommitsOf } from './worktree-git.js';
import { copyIncludedFiles, matchesIncludeFile } from './worktree-include.js';
import type { TaskWorktree } from './worktree-store.js';

export interface PreparedWorkspace {
  cwd: string;
  /** Output of the project's set-up command when this start made the worktree. */
  setupOutput?: string;
  worktree?: TaskWorktree;
}

/**
 * Where the task's CLI runs: its worktree (made on the first start, re-made when removed by hand or
 * collected) when the project isolates tasks, else the project folder. A task that ran in the
 * project folder before its project isolated tasks keeps running there (its CLI sessions are there).
 */
export async function prepareTaskWorktree(wt: WorktreeContext, taskId: number, request: { baseBranch?: string } = {}): Promise<PreparedWorkspace> {
  const task = wt.options.domain.tasks.get(taskId);
  const project = wt.options.domain.projects.get(task.projectId);
  const existing = wt.store.get(taskId);
  if (!existing) {
    if (isolationOf(wt, project.id).effective === 'none') {
      if (request.baseBranch) throw notIsolated(project.id);
      return { cwd: project.repoPath };
    }
    if (!request.baseBranch && wt.options.domain.executions.latestForTask(taskId)) return { cwd: project.repoPath };
  }
  return wt.withLock(project.repoPath, () => ensureWorktree(wt, task, project.repoPath, request.baseBranch));
}

export async function ensureWorktree(wt: WorktreeContext, task: TaskRecord, repo: string, baseOverride: string | undefined): Promise<PreparedWorkspace> {
  await wt.git.ensureUsable();
  let row = wt.store.get(task.id);
  if (row && baseOverride && baseOverride !== row.baseBranch) {
    throw new SvcError({
      code: 'invalid_request',
      message: `task ${task.id} already has branch ${row.branch} from ${row.baseBranch}; its base cannot change`,
      details: { fix: 'start a new task to work from another base branch' },
    });
  }
  if (row?.state === 'ACTIVE' && existsSync(row.worktreePath) && (await isRegisteredWorktree(wt, repo, row.worktreePath))) return { cwd: row.worktreePath, worktree: row };
  await refuseUnsupported(wt, repo, task.projectId);
  const branchExists = row ? await hasBranch(wt, repo, row.branch) : false;
  if (row && branchExists) {
    // Removed by hand, collected, or a start a kill interrupted: the branch is there, re-attach it
    // (a discard a kill interrupted may have left the old folder beside it, archived).
    rmSync(discardingPath(row.worktreePath), { recursive: true, force: true });
    wt.store.begin({ taskId: task.id, projectId: task.projectId, branch: row.branch, baseBranch: row.baseBranch, worktreePath: row.worktreePath });
    await addWorktree(wt, repo, row.worktreePath, ['-f', row.worktreePath, row.branch]);
    const baseCommit = row.baseCommit ?? (await wt.git.text(['merge-base', refOf(row.baseBranch), refOf(row.branch)], repo));
    const fresh = row.state === 'CREATING';
    row = wt.store.activate(task.id, baseCommit);
    return fresh ? await setUp(wt, task, repo, row) : { cwd: row.worktreePath, worktree: row };
  }
  const baseBranch = row?.baseBranch ?? baseOverride ?? wt.store.isolationRow(task.projectId).baseBranch ?? (await currentBranchOrRefuse(wt, repo, task.projectId));
  const baseCommit = await requireBranch(wt, repo, baseBranch, task.projectId);
  const branch = row?.branch ?? branchName(task);
  if (!row && (await hasBranch(wt, repo, branch))) {
    throw new SvcError({
      code: 'task_branch_taken',
      message: `branch ${branch} already exists in ${repo} and is not task ${task.id}'s; nothing was created`,
      details: { branch, fix: `rename or delete that branch (git branch -m ${branch} <other>), then start the task again` },
    });
  }
  const worktreePath = join(wt.root, String(task.projectId), String(task.id));
  row = wt.store.begin({ taskId: task.id, projectId: task.projectId, branch, baseBranch, worktreePath });
  await addWorktree(wt, repo, worktreePath, ['-b', branch, worktreePath, baseCommit]);
  row = wt.store.activate(task.id, baseCommit);
  return setUp(wt, task, repo, row);
}

/** `.worktreeinclude` files copied in, then the project's set-up command; a failure undoes the new worktree. */
export async function setUp(wt: WorktreeContext, task: TaskRecord, repo: string, row: TaskWorktree): Promise<PreparedWorkspace> {
  // What was copied is recorded, so a discard can tell a copy the person edited from one untouched.
  wt.archive.recordCopies(task.id, row.worktreePath, copyIncludedFiles(repo, row.worktreePath, await ignoredFiles(wt, repo)));
  const command = wt.store.isolationRow(task.projectId).setupCommand;
  if (!command) return { cwd: row.worktreePath, worktree: row };
  const result = await runSetupCommand(command, row.worktreePath, wt.options.hostEnv);
  const output = `$ ${command}\r\n${result.output.replace(/\r?\n/g, '\r\n')}`;
  if (result.exitCode !== 0) {
    // The worktree was made by this start and holds no commits of its own: remove it and its branch
    // so the next start sets up afresh.
    await removeWorktree(wt, repo, row);
    if ((await unmergedCommitsOf(wt, repo, row)).length === 0) await wt.git.run(['branch', '-D', '--', row.branch], repo, { okCodes: [1] });
    wt.store.markRemoved(task.id);
    wt.options.db.prepare('DELETE FROM task_worktrees WHERE task_id = ? AND base_commit IS NOT NULL AND merged_commit IS NULL').run(task.id);
    throw new SvcError({
      code: 'worktree_setup_failed',
      message: `the project's set-up command failed in task ${task.id}'s new worktree (exit ${result.exitCode}); the CLI was not started`,
      details: { output: result.output.slice(-4000), fix: 'fix the command (svc project isolation <project> --setup "<command>") or the repository, then start the task again' },
    });
  }
  return { cwd: row.worktreePath, setupOutput: output, worktree: row };
}

/** Submodules are not checked out in a new worktree, and LFS files need git-lfs: refused with a fix. */
export async function refuseUnsupported(wt: WorktreeContext, repo: string, projectId: number): Promise<void> {
  if (existsSync(join(repo, '.gitmodules'))) {
    throw new SvcError({
      code: 'repository_has_submodules',
      message: `${repo} uses git submodules, which a task worktree would not check out`,
      details: { fix: `run this project's tasks in its folder: svc project isolation ${projectId} --mode none` },
    });
  }
  const attributes = join(repo, '.gitattributes');
  if (existsSync(attributes) && /filter=lfs/.test(readFileSync(attributes, 'utf8'))) {
    const lfs = await wt.git.run(['lfs', 'version'], repo, { okCodes: [1, 128] }).catch(() => ({ exitCode: 1 }));
    if (lfs.exitCode !== 0) {
      throw new SvcError({
        code: 'git_lfs_missing',
        message: `${repo} stores files with Git LFS and git-lfs is not installed, so a task worktree would hold pointer files`,
        details: { fix: `install git-lfs (git lfs install), or run this project's tasks in its folder: svc project isolation ${projectId} --mode none` },
      });
    }
  }
}

/** Ignored files of the project folder (the candidates `.worktreeinclude` picks from). */
export async function ignoredFiles(wt: WorktreeContext, repo: string): Promise<string[]> {
  if (!existsSync(join(repo, '.worktreeinclude'))) return [];
  const listed = await wt.git.text(['ls-files', '--others', '--ignored', '--exclude-standard', '-z'], repo);
  const patterns = readFileSync(join(repo, '.worktreeinclude'), 'utf8');
  return listed.split('\0').filter((path) => path && matchesIncludeFile(patterns, path));
}

/** `svc/<task-id>-<slug of the title>`. */
export function branchName(task: Pick<TaskRecord, 'id' | 'title'>): string {
  const slug = task.title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return `svc/${task.id}${slug ? `-${slug}` : ''}`;
}

export function notIsolated(projectId: number): SvcError {
  return new SvcError({
    code: 'task_not_isolated',
    message: `project ${projectId} runs its tasks in its folder (isolation none), so a task cannot name a base branch`,
    details: { fix: `svc project isolation ${projectId} --mode worktree` },
  });
}
