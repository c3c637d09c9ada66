// Brings a discarded or collected worktree back from its archive.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { ARCHIVE_RETENTION_DAYS, type ArchiveEntry } from './worktree-archive.js';
import type { WorktreeContext } from './worktree-context.js';
import { addWorktree } from './worktree-folders.js';
import { discardingPath, isRegisteredWorktree, refOf, tipOf } from './worktree-git.js';

export interface RestoreResult {
  taskId: number;
  outcome: 'restored' | 'already_restored';
  branch: string;
  worktreePath: string;
  /** Files copied back from the archive (besides the branch's own). */
  files: number;
  archivedAt: string;
}

/**
 * Brings a discarded or collected worktree back from its newest archive, exactly: the branch at the
 * archived tip (from the archive's bundle when it was deleted), the staged changes, and every file
 * git did not hold, byte for byte. Re-runnable after a kill; refused when the task has a worktree.
 */
export async function restoreTaskWorktree(wt: WorktreeContext, taskId: number): Promise<RestoreResult> {
  const task = wt.options.domain.tasks.get(taskId);
  const repo = wt.options.domain.projects.get(task.projectId).repoPath;
  return wt.withLock(repo, async () => {
    const entry = wt.archive.latest(taskId);
    const row = wt.store.get(taskId);
    const live = row !== undefined && row.state === 'ACTIVE' && existsSync(row.worktreePath) && (await isRegisteredWorktree(wt, repo, row.worktreePath));
    if (!entry || !row) {
      throw new SvcError({
        code: 'nothing_to_restore',
        message: `task ${taskId} has no archived worktree (archives are kept ${ARCHIVE_RETENTION_DAYS} days after a discard or collection)`,
        details: { taskId, fix: live ? 'its worktree is there already: svc task worktree ' + taskId : 'start the task again to get a fresh worktree from its branch' },
      });
    }
    const { manifest } = entry;
    const answer = { taskId, branch: manifest.branch, worktreePath: manifest.worktreePath, files: manifest.files.length, archivedAt: manifest.archivedAt };
    if (live && entry.restored) return { ...answer, outcome: 'already_restored' as const };
    if (live && !wt.archive.isRestoring(entry)) {
      throw new SvcError({
        code: 'worktree_exists',
        message: `task ${taskId} has a worktree already (${row.worktreePath}); restoring its archive of ${manifest.archivedAt} would overwrite it, so nothing was changed`,
        details: { taskId, fix: `discard the current worktree first (svc task discard ${taskId}), then restore` },
      });
    }
    await wt.git.ensureUsable();
    const tip = await tipOf(wt, repo, manifest.branch);
    if (tip !== undefined && tip !== manifest.tip) {
      throw new SvcError({
        code: 'task_branch_moved',
        message: `task ${taskId}'s branch ${manifest.branch} moved since its worktree was archived (${manifest.tip.slice(0, 12)} → ${tip.slice(0, 12)}); nothing was restored`,
        details: { taskId, archivedTip: manifest.tip, tip, fix: `put the branch back (git branch -f ${manifest.branch} ${manifest.tip.slice(0, 12)}) to restore the archive, or start the task to work from the branch as it is` },
      });
    }
    wt.archive.mark(entry, 'restoring');
    if (tip === undefined) await recreateBranch(wt, repo, entry);
    wt.store.begin({ taskId, projectId: row.projectId, branch: manifest.branch, baseBranch: manifest.baseBranch, worktreePath: manifest.worktreePath });
    rmSync(discardingPath(manifest.worktreePath), { recursive: true, force: true });
    await addWorktree(wt, repo, manifest.worktreePath, ['-f', manifest.worktreePath, manifest.branch]);
    // From the branch's tip (a kill may have left a half checkout or a half restore), then the archive.
    await wt.git.run(['read-tree', '--reset', '-u', 'HEAD'], manifest.worktreePath, { contentFilters: true });
    if (readFileSync(join(entry.folder, 'staged.patch')).length > 0) {
      await wt.git.run(['apply', '--cached', '--binary', join(entry.folder, 'staged.patch')], manifest.worktreePath);
    }
    for (const path of manifest.files) {
      const target = join(manifest.worktreePath, path);
      if (relative(manifest.worktreePath, target).startsWith(`..${sep}`)) continue;
      mkdirSync(dirname(target), { recursive: true });
      rmSync(target, { force: true });
      cpSync(join(entry.folder, 'files', path), target, { preserveTimestamps: true, verbatimSymlinks: true });
    }
    for (const path of manifest.deleted) rmSync(join(manifest.worktreePath, path), { force: true });
    wt.store.activate(taskId, row.baseCommit ?? manifest.tip);
    wt.archive.mark(entry, 'restored');
    return { ...answer, outcome: 'restored' as const };
  });
}

/** The archived branch back: from its tip when git still has the commit, else from the archive's bundle. */
export async function recreateBranch(wt: WorktreeContext, repo: string, entry: ArchiveEntry): Promise<void> {
  const { manifest } = entry;
  const known = await wt.git.run(['cat-file', '-e', `${manifest.tip}^{commit}`], repo, { okCodes: [1, 128] });
  if (known.exitCode !== 0) {
    if (!manifest.bundle) {
      throw new SvcError({
        code: 'nothing_to_restore',
        message: `task ${manifest.taskId}'s branch ${manifest.branch} and its commit ${manifest.tip.slice(0, 12)} are gone from ${repo}`,
        details: { fix: 'start the task again to get a fresh worktree' },
      });
    }
    await wt.git.run(['bundle', 'unbundle', join(entry.folder, 'branch.bundle')], repo);
  }
  await wt.git.run(['update-ref', '-m', `svc: restore task ${manifest.taskId}`, refOf(manifest.branch), manifest.tip, ''], repo);
}
