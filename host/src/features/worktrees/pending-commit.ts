// A worktree's uncommitted work as a commit on its task's branch, made before any ref moves and undone
// when what follows fails.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import type { TaskRecord } from '../domain/index.js';
import { writeFileAtomic } from './worktree-archive.js';
import type { WorktreeContext } from './worktree-context.js';
import { refOf } from './worktree-git.js';
import type { TaskWorktree } from './worktree-store.js';

export interface PendingCommit {
  commit: string;
  indexPath: string;
  indexBefore: Buffer | undefined;
  repointedWorktree: 'proceed' | 'refuse';
}

/** Commits pending changes to the task branch when asked; refuses (naming the files) otherwise. */
export async function settlePending(wt: WorktreeContext, row: TaskWorktree, task: TaskRecord, commitPending: boolean | undefined, action: 'merge' | 'discard'): Promise<boolean> {
  const oldTip = await wt.git.text(['rev-parse', '--verify', `${refOf(row.branch)}^{commit}`], wt.options.domain.projects.get(row.projectId).repoPath);
  const pending = await pendingCommit(wt, row, task, commitPending, action, oldTip);
  if (!pending) return false;
  await landPending(wt, wt.options.domain.projects.get(row.projectId).repoPath, row, oldTip, pending);
  return true;
}

/**
 * The worktree's uncommitted work as a commit object on top of the branch tip, made through a copy
 * of its index: no ref, index or file changes. Undefined when nothing is pending; refused (naming
 * the files) when something is and the person did not ask to commit it.
 */
export async function pendingCommit(wt: WorktreeContext, row: TaskWorktree, task: TaskRecord, commitPending: boolean | undefined, action: 'merge' | 'discard', tip: string): Promise<PendingCommit | undefined> {
  if (row.state === 'REMOVED' || !existsSync(row.worktreePath)) return undefined;
  // Discarding a worktree whose `.git` an agent repointed stays possible (git runs against the git
  // directory svc made either way); landing from it is refused.
  const repointedWorktree = action === 'discard' ? 'proceed' : 'refuse';
  const pending = (await wt.git.run(['status', '--porcelain'], row.worktreePath, { repointedWorktree })).stdout.split('\n').filter(Boolean);
  if (pending.length === 0) return undefined;
  if (!commitPending) {
    throw new SvcError({
      code: 'task_has_uncommitted_changes',
      message: `task ${task.id}'s worktree has ${pending.length} uncommitted change${pending.length === 1 ? '' : 's'}; nothing was ${action === 'merge' ? 'merged' : 'removed'}`,
      details: { files: pending.slice(0, 50).map((line) => line.slice(3)), fix: `repeat with --commit-pending to commit them to ${row.branch} first, or let the task commit them` },
    });
  }
  const index = await wt.git.text(['rev-parse', '--path-format=absolute', '--git-path', 'index'], row.worktreePath, { repointedWorktree });
  const scratch = join(wt.options.svcHome, 'tmp');
  mkdirSync(scratch, { recursive: true, mode: 0o700 });
  // Copies a killed run left behind (an hour is far longer than any use of one).
  for (const name of readdirSync(scratch)) {
    const path = join(scratch, name);
    if (name.startsWith('index-') && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
  }
  const copy = join(scratch, `index-${row.taskId}-${process.pid}-${Date.now()}`);
  try {
    // The copy keeps the index's time: git tells an edit of the same size made in the second the index
    // was written from an unchanged file only by comparing the file's time with the index file's own.
    if (existsSync(index)) cpSync(index, copy, { preserveTimestamps: true });
    const env = { GIT_INDEX_FILE: copy };
    // The person's filter drivers (Git LFS) run, as for any commit of pending work.
    if (!existsSync(index)) await wt.git.run(['read-tree', tip], row.worktreePath, { env, repointedWorktree });
    await wt.git.run(['add', '-A'], row.worktreePath, { env, repointedWorktree, contentFilters: true });
    const tree = await wt.git.text(['write-tree'], row.worktreePath, { env, repointedWorktree });
    const commit = await wt.git.text(['commit-tree', tree, '-p', tip, '-F', '-'], row.worktreePath, { repointedWorktree, stdin: `Pending changes of task ${task.id}: ${task.title}\n` });
    return { commit, indexPath: index, indexBefore: existsSync(index) ? readFileSync(index) : undefined, repointedWorktree };
  } finally {
    rmSync(copy, { force: true });
  }
}

/** Moves the task's branch to the pending commit (only from `oldTip`) and its worktree's index with it. */
export async function landPending(wt: WorktreeContext, repo: string, row: TaskWorktree, oldTip: string, pending: PendingCommit): Promise<void> {
  await wt.git.run(['update-ref', '-m', `svc: pending changes of task ${row.taskId}`, refOf(row.branch), pending.commit, oldTip], repo);
  await wt.git.run(['read-tree', '--reset', 'HEAD'], row.worktreePath, { repointedWorktree: pending.repointedWorktree });
}

/** Puts the branch and the worktree's index back as they were before `landPending`. */
export async function undoPending(wt: WorktreeContext, repo: string, row: TaskWorktree, oldTip: string, pending: PendingCommit): Promise<void> {
  await wt.git.run(['update-ref', '-m', `svc: merge of task ${row.taskId} failed`, refOf(row.branch), oldTip, pending.commit], repo);
  if (pending.indexBefore) writeFileAtomic(pending.indexPath, pending.indexBefore);
}
