// Clean-up: worktrees of tasks closed longer than the retention go (archived), old archives are pruned.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { discardTaskWorktree } from './discard-task-worktree.js';
import type { WorktreeContext } from './worktree-context.js';
import { CLOSED_STATUSES, safeTask } from './worktree-git.js';

export const DEFAULT_RETENTION_DAYS = 7;

/** A worktree collection left in place: it holds files a person may have written. */
export interface KeptWorktree {
  taskId: number;
  files: string[];
}

export interface CollectSkip {
  taskId: number;
  code: string;
  message: string;
}

export interface WorktreeDiskUse {
  projectId: number;
  worktrees: number;
  bytes: number;
}

/**
 * Worktrees of tasks done, cancelled (or gone) for longer than the retention are removed (their
 * uncommitted changes committed to their branches, the rest archived); branches stay. A worktree
 * holding ignored files a person may have written (a hand-edited `.env`) is kept unless `force`.
 * Archives older than the archive retention are pruned.
 */
export async function collectTaskWorktrees(wt: WorktreeContext, request: { dryRun?: boolean; retentionDays?: number; force?: boolean } = {}): Promise<{ removed: number[]; candidates: number[]; kept: KeptWorktree[]; skipped: CollectSkip[]; archivesPruned: number; disk: WorktreeDiskUse[] }> {
  const retentionMs = (request.retentionDays ?? DEFAULT_RETENTION_DAYS) * 86_400_000;
  const now = (wt.options.now ?? (() => new Date()))().getTime();
  const candidates: number[] = [];
  for (const row of wt.store.list({ states: ['ACTIVE', 'CREATING'] })) {
    const task = safeTask(wt.options.domain, row.taskId);
    if (!task || !CLOSED_STATUSES.has(task.status)) continue;
    if (now - Date.parse(task.updatedAt) < retentionMs) continue;
    if (wt.options.domain.executions.liveForTask(row.taskId)) continue;
    candidates.push(row.taskId);
  }
  const removed: number[] = [];
  const kept: KeptWorktree[] = [];
  const skipped: CollectSkip[] = [];
  for (const taskId of candidates) {
    if (request.dryRun) {
      const preview = await discardTaskWorktree(wt, taskId, { dryRun: true }).catch(() => undefined);
      if (preview && preview.held.ignored.length > 0 && !request.force) kept.push({ taskId, files: preview.held.ignored });
      continue;
    }
    // One worktree that cannot go (a git failure, a folder in use) does not stop the others; one
    // holding files a person may have written stays until the person confirms.
    try {
      await discardTaskWorktree(wt, taskId, { commitPending: true, ...(request.force ? { force: true } : {}) });
      removed.push(taskId);
    } catch (error) {
      if (SvcError.hasCode(error) && error.code === 'worktree_has_unsaved_files') kept.push({ taskId, files: ((error as SvcError).details as { files?: string[] } | undefined)?.files ?? [] });
      else skipped.push({ taskId, code: SvcError.hasCode(error) ? error.code : 'internal', message: SvcError.hasCode(error) ? error.message : 'the worktree could not be removed' });
    }
  }
  const archivesPruned = request.dryRun ? 0 : wt.archive.prune();
  return { removed, candidates, kept, skipped, archivesPruned, disk: worktreeDiskUse(wt) };
}

/** Bytes under `$SVC_HOME/worktrees/<project>` per project (what the worktrees hold on disk). */
export function worktreeDiskUse(wt: WorktreeContext): WorktreeDiskUse[] {
  if (!existsSync(wt.root)) return [];
  const out: WorktreeDiskUse[] = [];
  for (const entry of readdirSync(wt.root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !/^\d+$/.test(entry.name)) continue;
    const folder = join(wt.root, entry.name);
    out.push({ projectId: Number(entry.name), worktrees: readdirSync(folder).length, bytes: folderBytes(folder) });
  }
  return out.sort((a, b) => a.projectId - b.projectId);
}

export function folderBytes(folder: string): number {
  let total = 0;
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        try {
          total += statSync(path).size;
        } catch {
          // removed meanwhile
        }
      }
    }
  }
  return total;
}
