// Lands a task's branch on its base branch, only when nothing can be lost.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { landPending, pendingCommit, undoPending } from './pending-commit.js';
import { checkOverlaps } from './task-overlaps.js';
import type { WorktreeContext } from './worktree-context.js';
import { currentBranch, listFiles, realOrSelf, refOf, requireBranch, requireRow, requireTaskBranch } from './worktree-git.js';
import type { TaskWorktree } from './worktree-store.js';

export interface MergeResult {
  taskId: number;
  outcome: 'merged' | 'already_merged';
  branch: string;
  baseBranch: string;
  commit: string;
  squash: boolean;
  files: string[];
  committedPending: boolean;
}

/**
 * Lands the task branch on its base branch. Everything is computed and checked before any ref
 * moves: the pending work as a commit object (through a copy of the worktree's index), the merged
 * tree (`merge-tree`, no working tree touched), what the project folder would have overwritten.
 * So a refusal or a conflict changes nothing: not the task's branch, not its worktree's index, not
 * the base. The project folder only fast-forwards to the new commit, and only when its tracked
 * files are unchanged and no file it holds outside git would be replaced; a base checked out in
 * another worktree is not moved. After the merge every open task of the project is checked again
 * against the new base (`checkOverlaps`).
 */
export async function mergeTaskBranch(wt: WorktreeContext, taskId: number, request: { squash?: boolean; message?: string; commitPending?: boolean } = {}): Promise<MergeResult> {
  const { row, repo, task } = requireRow(wt, taskId);
  const result = await wt.withLock(repo, async (): Promise<MergeResult> => {
    await requireTaskBranch(wt, repo, row);
    const baseTip = await requireBranch(wt, repo, row.baseBranch, row.projectId);
    const dirty = (await wt.git.run(['status', '--porcelain', '--untracked-files=no'], repo)).stdout.split('\n').filter(Boolean);
    if (dirty.length > 0) {
      throw new SvcError({
        code: 'project_folder_dirty',
        message: `the project folder ${repo} has uncommitted changes (${listFiles(dirty.map((line) => line.slice(3)))}); nothing was merged`,
        details: { files: dirty.slice(0, 50).map((line) => line.slice(3)), fix: 'commit or stash the changes in the project folder, then merge again' },
      });
    }
    const checkedOutHere = (await currentBranch(wt, repo)) === row.baseBranch;
    await refuseBaseCheckedOutElsewhere(wt, repo, row);
    const oldTip = await wt.git.text(['rev-parse', '--verify', `${refOf(row.branch)}^{commit}`], repo);
    const pending = await pendingCommit(wt, row, task, request.commitPending, 'merge', oldTip);
    const branchTip = pending?.commit ?? oldTip;
    const committedPending = pending !== undefined;
    const base = { taskId, branch: row.branch, baseBranch: row.baseBranch, squash: Boolean(request.squash), committedPending };
    if ((await wt.git.run(['merge-base', '--is-ancestor', branchTip, baseTip], repo, { okCodes: [1] })).exitCode === 0) {
      return { ...base, committedPending: false, outcome: 'already_merged', commit: baseTip, files: [] };
    }
    const merged = await wt.git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', baseTip, branchTip], repo, { okCodes: [1] });
    const [tree, ...conflicted] = merged.stdout.trim().split('\n');
    if (merged.exitCode === 1) {
      throw new SvcError({
        code: 'merge_conflict',
        message: `task ${taskId}'s branch ${row.branch} conflicts with ${row.baseBranch} in ${listFiles(conflicted)}; nothing was merged${committedPending ? ' and nothing was committed' : ''}`,
        details: { files: conflicted, fix: `resolve it in the task (e.g. ask it to rebase on ${row.baseBranch}), then merge again` },
      });
    }
    // A squash that already landed leaves nothing to add: re-running it changes nothing.
    if (tree === (await wt.git.text(['rev-parse', `${baseTip}^{tree}`], repo))) return { ...base, committedPending: false, outcome: 'already_merged', commit: baseTip, files: [] };
    const files = (await wt.git.text(['diff', '--name-only', '--no-renames', baseTip, tree!], repo)).split('\n').filter(Boolean);
    if (checkedOutHere) await refuseOverwritingUntracked(wt, repo, baseTip, tree!, taskId);
    const message = request.message ?? `${request.squash ? 'Squash' : 'Merge'} task ${taskId}: ${task.title} (${row.branch})`;
    const parents = request.squash ? ['-p', baseTip] : ['-p', baseTip, '-p', branchTip];
    const commit = await wt.git.text(['commit-tree', tree!, ...parents, '-F', '-'], repo, { stdin: `${message}\n` });
    // Every check passed: the pending work lands on the task's branch, then the base moves; a
    // failure moving the base puts the branch and the worktree's index back as they were.
    if (pending) await landPending(wt, repo, row, oldTip, pending);
    try {
      if (checkedOutHere) await fastForwardProjectFolder(wt, repo, baseTip, commit);
      // The base is not checked out here: move its ref, only if nobody moved it meanwhile.
      else await wt.git.run(['update-ref', '-m', `svc: merge task ${taskId}`, refOf(row.baseBranch), commit, baseTip], repo);
    } catch (error) {
      if (pending) await undoPending(wt, repo, row, oldTip, pending);
      throw error;
    }
    wt.store.markMerged(taskId, commit);
    return { ...base, outcome: 'merged', commit, files };
  });
  // The base moved: every open task of the project is compared with its new tip.
  if (result.outcome === 'merged') await checkOverlaps(wt, row.projectId).catch(() => undefined);
  return result;
}

/**
 * The project folder (on the base branch) fast-forwards to the merge. A failure part way (the
 * branch's ref could not be locked after git updated the files) puts its index and files back.
 */
export async function fastForwardProjectFolder(wt: WorktreeContext, repo: string, baseTip: string, commit: string): Promise<void> {
  try {
    await wt.git.run(['merge', '--ff-only', '--quiet', commit], repo, { contentFilters: true });
  } catch (error) {
    const head = await wt.git.text(['rev-parse', 'HEAD'], repo);
    const indexMoved = (await wt.git.run(['diff', '--cached', '--quiet', baseTip, '--'], repo, { okCodes: [1] })).exitCode === 1;
    if (head === baseTip && indexMoved) await wt.git.run(['read-tree', '-m', '-u', commit, baseTip], repo, { contentFilters: true });
    throw error;
  }
}

/** A base branch checked out in a worktree other than the project folder is not moved under it. */
export async function refuseBaseCheckedOutElsewhere(wt: WorktreeContext, repo: string, row: TaskWorktree): Promise<void> {
  const list = (await wt.git.text(['worktree', 'list', '--porcelain'], repo)).split('\n\n');
  const elsewhere = list
    .map((entry) => ({ path: /^worktree (.*)$/m.exec(entry)?.[1], branch: /^branch (.*)$/m.exec(entry)?.[1] }))
    .filter((entry) => entry.branch === refOf(row.baseBranch) && entry.path !== undefined && realOrSelf(entry.path) !== realOrSelf(repo));
  if (elsewhere.length === 0) return;
  const where = elsewhere.map((entry) => entry.path!);
  throw new SvcError({
    code: 'base_branch_checked_out',
    message: `${row.baseBranch} is checked out in another worktree (${where.join(', ')}); moving it there would leave that checkout behind its branch, so nothing was merged`,
    details: { branch: row.baseBranch, worktrees: where, fix: `check out another branch in ${where[0]} (or remove that worktree), or merge from there: git merge ${row.branch}` },
  });
}

/** Files the merge adds that the project folder already holds outside git (untracked or ignored) would be replaced: refused. */
export async function refuseOverwritingUntracked(wt: WorktreeContext, repo: string, baseTip: string, tree: string, taskId: number): Promise<void> {
  const added = (await wt.git.text(['diff', '--name-only', '--no-renames', '--diff-filter=A', '-z', baseTip, tree], repo)).split('\0').filter(Boolean);
  const present = added.filter((path) => {
    try {
      lstatSync(join(repo, path));
      return true;
    } catch {
      return false;
    }
  });
  if (present.length === 0) return;
  throw new SvcError({
    code: 'merge_would_overwrite_files',
    message: `merging task ${taskId} would replace ${present.length} file${present.length === 1 ? '' : 's'} of the project folder that git does not track (${listFiles(present)}); nothing was merged`,
    details: { files: present.slice(0, 50), fix: `move ${present.length === 1 ? 'it' : 'them'} out of the project folder (or commit ${present.length === 1 ? 'it' : 'them'}), then merge again` },
  });
}
