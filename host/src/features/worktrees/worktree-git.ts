// The questions about a task's row and branches that several worktree operations ask, and their refusals.
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import type { Domain, TaskRecord } from '../domain/index.js';
import type { WorktreeContext } from './worktree-context.js';
import type { TaskWorktree } from './worktree-store.js';

export const CLOSED_STATUSES = new Set(['DONE', 'CANCELLED']);

export interface LostCommit {
  sha: string;
  subject: string;
}

export async function unmergedCommitsOf(wt: WorktreeContext, repo: string, row: TaskWorktree): Promise<LostCommit[]> {
  const base = (await hasBranch(wt, repo, row.baseBranch)) ? `^${refOf(row.baseBranch)}` : undefined;
  const log = await wt.git.text(['log', '--format=%H %s', '--max-count=200', refOf(row.branch), ...(base ? [base] : []), '--'], repo);
  return log
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, 40), subject: line.slice(41) }));
}

export function requireRow(wt: WorktreeContext, taskId: number): { row: TaskWorktree; repo: string; task: TaskRecord } {
  const task = wt.options.domain.tasks.get(taskId);
  const row = wt.store.get(taskId);
  if (!row) {
    throw new SvcError({
      code: 'task_not_isolated',
      message: `task ${taskId} has no worktree (its project does not isolate tasks, or it has not started)`,
      details: { taskId, fix: `start the task in a project whose isolation is worktree (svc project isolation <project> --mode worktree)` },
    });
  }
  return { row, repo: wt.options.domain.projects.get(task.projectId).repoPath, task };
}

export async function requireTaskBranch(wt: WorktreeContext, repo: string, row: TaskWorktree): Promise<void> {
  if (await hasBranch(wt, repo, row.branch)) return;
  throw new SvcError({
    code: 'task_branch_missing',
    message: `task ${row.taskId}'s branch ${row.branch} is gone from ${repo}`,
    details: { branch: row.branch, fix: 'restore the branch (git branch <name> <commit>), or discard the task' },
  });
}

/** The base branch's tip; `base_branch_not_found` with a fix when it was deleted or never existed. */
export async function requireBranch(wt: WorktreeContext, repo: string, branch: string, projectId: number): Promise<string> {
  const found = await wt.git.run(['rev-parse', '--verify', '--quiet', `${refOf(branch)}^{commit}`], repo, { okCodes: [1] });
  if (found.exitCode === 0) return found.stdout.trim();
  throw new SvcError({
    code: 'base_branch_not_found',
    message: `base branch ${branch} does not exist in ${repo}`,
    details: { branch, fix: `create it, or set another base: svc project isolation ${projectId} --base <branch>` },
  });
}

export async function hasBranch(wt: WorktreeContext, repo: string, branch: string): Promise<boolean> {
  return (await wt.git.run(['rev-parse', '--verify', '--quiet', refOf(branch)], repo, { okCodes: [1] })).exitCode === 0;
}

export async function currentBranch(wt: WorktreeContext, repo: string): Promise<string | undefined> {
  const head = await wt.git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo, { okCodes: [1] });
  return head.exitCode === 0 ? head.stdout.trim() : undefined;
}

export async function currentBranchOrRefuse(wt: WorktreeContext, repo: string, projectId: number): Promise<string> {
  const branch = await currentBranch(wt, repo);
  if (branch) return branch;
  throw new SvcError({
    code: 'detached_head',
    message: `the project folder ${repo} has a detached HEAD, so there is no current branch to start tasks from`,
    details: { fix: `check out a branch there, or set the base: svc project isolation ${projectId} --base <branch>` },
  });
}

export async function isRegisteredWorktree(wt: WorktreeContext, repo: string, path: string): Promise<boolean> {
  const list = await wt.git.text(['worktree', 'list', '--porcelain'], repo);
  return list.split('\n').some((line) => line === `worktree ${path}`);
}

export async function tipOf(wt: WorktreeContext, repo: string, branch: string): Promise<string | undefined> {
  const found = await wt.git.run(['rev-parse', '--verify', '--quiet', `${refOf(branch)}^{commit}`], repo, { okCodes: [1] });
  return found.exitCode === 0 ? found.stdout.trim() : undefined;
}

/** A few file names for a message; the full list is in the error's details. */
export function listFiles(files: string[]): string {
  const shown = files.slice(0, 5).join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}

export function refOf(branch: string): string {
  return `refs/heads/${branch}`;
}

/** Where a worktree being discarded waits, out of its place, until it is deleted. */
export function discardingPath(worktreePath: string): string {
  return `${worktreePath}.discarding`;
}

export function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function isRepositoryRoot(folder: string): boolean {
  return existsSync(join(folder, '.git'));
}

export function safeTask(domain: Domain, taskId: number): TaskRecord | undefined {
  try {
    return domain.tasks.get(taskId);
  } catch {
    return undefined;
  }
}
