// Removes a task's worktree: archived first, refused when it would lose what only the worktree holds;
// its branch stays while it has commits the base lacks.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { SvcError } from '@svc-org/ai-sdk';
import type { TaskRecord } from '../domain/index.js';
import { settlePending } from './pending-commit.js';
import { ARCHIVE_RETENTION_DAYS, holdingsCount, holdingsList, type WorktreeHoldings } from './worktree-archive.js';
import type { WorktreeContext } from './worktree-context.js';
import { removeWorktree } from './worktree-folders.js';
import { discardingPath, hasBranch, listFiles, refOf, requireRow, type LostCommit, unmergedCommitsOf } from './worktree-git.js';
import type { TaskWorktree } from './worktree-store.js';

export interface DiscardResult {
  taskId: number;
  worktreeRemoved: boolean;
  branch: string;
  branchDeleted: boolean;
  /** Commits of the branch not in the base: kept unless the branch was deleted. */
  unmergedCommits: LostCommit[];
  committedPending: boolean;
  /** What only the worktree held (before it was removed). */
  held: WorktreeHoldings;
  /** The worktree went to the archive first (`restore` brings it back). */
  archived: boolean;
}

/**
 * Removes the task's worktree. What only it holds (uncommitted changes, untracked files, ignored
 * files other than unchanged `.worktreeinclude` copies) is refused unless the person confirms
 * (`force`), or commits the changes first (`commitPending`); the worktree is archived before
 * anything is removed (`restore` brings it back). Its branch stays while it has commits the base
 * lacks, unless the person deletes it naming the tip they were shown (`expectTip`), so nothing
 * unseen is lost. A refusal changes nothing.
 */
export async function discardTaskWorktree(wt: WorktreeContext, taskId: number, request: { deleteBranch?: boolean; expectTip?: string; commitPending?: boolean; dryRun?: boolean; force?: boolean } = {}): Promise<DiscardResult> {
  const { row, repo, task } = requireRow(wt, taskId);
  if (!request.dryRun && wt.options.domain.executions.liveForTask(taskId)) throw wt.options.domain.executions.alreadyRunning(taskId);
  return wt.withLock(repo, async () => {
    const branchExists = await hasBranch(wt, repo, row.branch);
    const live = row.state !== 'REMOVED' && existsSync(row.worktreePath);
    const held = live ? (await wt.archive.survey(row.worktreePath, repo, taskId)).holdings : { uncommitted: [], untracked: [], ignored: [] };
    const dirty = held.uncommitted.length + held.untracked.length > 0;
    let unmergedCommits = branchExists ? await unmergedCommitsOf(wt, repo, row) : [];
    const result = { taskId, branch: row.branch, worktreeRemoved: false, branchDeleted: false, unmergedCommits, committedPending: false, held, archived: false };
    if (request.dryRun) return { ...result, committedPending: dirty };
    if (!request.force && holdingsCount(atRisk(held, request.commitPending)) > 0) throw wouldLose(task, row, atRisk(held, request.commitPending));
    if (request.deleteBranch && branchExists && (unmergedCommits.length > 0 || (request.commitPending && dirty))) {
      const tip = await wt.git.text(['rev-parse', refOf(row.branch)], repo);
      if (!request.expectTip || !tip.startsWith(request.expectTip) || request.expectTip.length < 7) {
        throw new SvcError({
          code: 'confirmation_required',
          message: `deleting ${row.branch} loses ${unmergedCommits.length} commit${unmergedCommits.length === 1 ? '' : 's'} not in ${row.baseBranch}; nothing was removed`,
          details: { commits: unmergedCommits, tip, fix: `look at the commits, then repeat with the tip to confirm (expectTip ${tip.slice(0, 12)})` },
        });
      }
    }
    const committedPending = request.commitPending && dirty ? await settlePending(wt, row, task, true, 'discard') : false;
    if (committedPending) unmergedCommits = await unmergedCommitsOf(wt, repo, row);
    // The archive exists whole before anything is removed; the worktree then leaves its place in
    // one rename, so a kill leaves either the worktree as it was or its archive.
    let archived = false;
    if (live) {
      await wt.archive.write({ taskId, projectId: row.projectId, branch: row.branch, baseBranch: row.baseBranch, worktree: row.worktreePath, repo });
      archived = true;
      // A folder left by an earlier discard a kill interrupted was archived before it was moved there.
      rmSync(discardingPath(row.worktreePath), { recursive: true, force: true });
      renameSync(row.worktreePath, discardingPath(row.worktreePath));
    }
    await removeWorktree(wt, repo, row);
    rmSync(discardingPath(row.worktreePath), { recursive: true, force: true });
    let branchDeleted = false;
    if (request.deleteBranch && branchExists) {
      await wt.git.run(['branch', '-D', '--', row.branch], repo);
      branchDeleted = true;
    }
    wt.store.markRemoved(taskId);
    return { ...result, worktreeRemoved: true, branchDeleted, unmergedCommits, committedPending, archived };
  });
}

/**
 * Refuses, naming the files, a discard that would drop what only the worktree holds and the person
 * did not confirm (`force`): for a caller that must know before it stops the task's execution.
 */
export async function refuseLosing(wt: WorktreeContext, taskId: number, request: { commitPending?: boolean; force?: boolean } = {}): Promise<void> {
  if (request.force) return;
  const { row, repo, task } = requireRow(wt, taskId);
  if (row.state === 'REMOVED' || !existsSync(row.worktreePath)) return;
  const held = atRisk((await wt.archive.survey(row.worktreePath, repo, taskId)).holdings, request.commitPending);
  if (holdingsCount(held) > 0) throw wouldLose(task, row, held);
}

/** Before a task is deleted: its worktree goes (uncommitted work committed to its branch first, the rest archived), its branch stays. */
export async function forgetTaskWorktree(wt: WorktreeContext, taskId: number): Promise<void> {
  const row = wt.store.get(taskId);
  if (!row || (row.state === 'REMOVED' && !existsSync(row.worktreePath))) return;
  await discardTaskWorktree(wt, taskId, { commitPending: true, force: true });
}

/** What a discard would lose from the worktree: all it holds, less what --commit-pending takes to the branch. */
export function atRisk(held: WorktreeHoldings, commitPending: boolean | undefined): WorktreeHoldings {
  return commitPending ? { uncommitted: [], untracked: [], ignored: held.ignored } : held;
}

/** The refusal of a discard that would lose what only the worktree holds, naming the files. */
export function wouldLose(task: TaskRecord, row: TaskWorktree, held: WorktreeHoldings): SvcError {
  const files = holdingsList(held);
  const changes = held.uncommitted.length + held.untracked.length;
  const what =
    changes > 0
      ? `${changes} uncommitted change${changes === 1 ? '' : 's'}${held.ignored.length > 0 ? ` and ${held.ignored.length} ignored file${held.ignored.length === 1 ? '' : 's'} git does not keep` : ''}`
      : `${held.ignored.length} ignored file${held.ignored.length === 1 ? '' : 's'} git does not keep`;
  const code = changes > 0 ? 'task_has_uncommitted_changes' : 'worktree_has_unsaved_files';
  return new SvcError({
    code,
    message: `task ${task.id}'s worktree holds ${what} (${listFiles(files)}); nothing was removed`,
    details: {
      files: files.slice(0, 200),
      uncommitted: held.uncommitted.slice(0, 200),
      untracked: held.untracked.slice(0, 200),
      ignored: held.ignored.slice(0, 200),
      fix: `${changes > 0 ? `commit the changes to ${row.branch} first (--commit-pending), or ` : ''}confirm with --force: the worktree is archived for ${ARCHIVE_RETENTION_DAYS} days (svc task restore ${task.id} brings it back)`,
    },
  });
}
