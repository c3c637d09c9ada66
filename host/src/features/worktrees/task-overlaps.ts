// The project's git truth: which open tasks conflict with their base branch, and which overlap each other.
import type { WorktreeContext } from './worktree-context.js';
import { CLOSED_STATUSES, isRepositoryRoot, listFiles, safeTask, tipOf } from './worktree-git.js';
import type { TaskOverlap, TaskWorktree } from './worktree-store.js';

export interface BaseConflict {
  taskId: number;
  baseBranch: string;
  /** The base branch's tip it was computed against. */
  baseTip: string;
  /** Files the task's branch would conflict in with that tip. */
  files: string[];
}

export interface GitTruth {
  /** Pairs of open tasks whose branches changed the same files. */
  overlaps: TaskOverlap[];
  /** Of those, the ones new or changed since the last check. */
  fresh: TaskOverlap[];
  /** Open tasks whose branch would conflict with its base branch's tip. */
  baseConflicts: BaseConflict[];
  /** Of those, the ones that conflict now and did not (or in other files) at the last check. */
  newBaseConflicts: BaseConflict[];
}

/**
 * The project's git truth, the one place overlaps and conflicts are computed: for each open task,
 * the files its committed work would conflict in with its base branch's current tip, and the pairs
 * of open tasks whose branches changed the same files (and which of those would conflict). All by
 * `merge-tree` on commits: no working tree is touched. Records both; `fresh` holds the pairs new or
 * changed since the last check, `newBaseConflicts` the tasks that now conflict with their base
 * (each also a `task_conflicts_with_base` domain event, once per base tip and set of files).
 */
export async function checkOverlaps(wt: WorktreeContext, projectId: number): Promise<GitTruth> {
  const project = wt.options.domain.projects.get(projectId);
  const repo = project.repoPath;
  const open = wt.store
    .list({ projectId, states: ['ACTIVE'] })
    .filter((row) => {
      const task = safeTask(wt.options.domain, row.taskId);
      return task !== undefined && !CLOSED_STATUSES.has(task.status);
    });
  const tips: { row: TaskWorktree; tip: string; baseTip: string }[] = [];
  for (const row of open) {
    const tip = await tipOf(wt, repo, row.branch);
    const baseTip = await tipOf(wt, repo, row.baseBranch);
    if (tip && baseTip) tips.push({ row, tip, baseTip });
  }
  // Nothing moved since the last computation: the same answer, nothing new to report.
  const signature = JSON.stringify(tips.map(({ row, tip, baseTip }) => [row.taskId, tip, baseTip]));
  const cached = truthsOf(wt).get(projectId);
  if (cached?.signature === signature) return { ...cached.truth, fresh: [], newBaseConflicts: [] };
  const { changed, baseConflicts, newBaseConflicts } = await checkBaseConflicts(wt, projectId, repo, tips);
  const { overlaps, fresh, keep } = await checkPairs(wt, repo, changed);
  // Pairs no longer open or no longer overlapping (a task merged, closed or rebased) are forgotten.
  wt.store.clearOverlapsExcept(projectId, keep);
  const truth = { overlaps, fresh, baseConflicts, newBaseConflicts };
  truthsOf(wt).set(projectId, { signature, truth });
  return truth;
}

/**
 * For each task, the files its branch changed since its base's tip and those it would conflict in
 * there; recorded, and a `task_conflicts_with_base` event for each conflict new since the last check.
 */
async function checkBaseConflicts(
  wt: WorktreeContext,
  projectId: number,
  repo: string,
  tips: { row: TaskWorktree; tip: string; baseTip: string }[],
): Promise<{ changed: Map<number, { tip: string; files: Set<string> }>; baseConflicts: BaseConflict[]; newBaseConflicts: BaseConflict[] }> {
  const changed = new Map<number, { tip: string; files: Set<string> }>();
  const baseConflicts: BaseConflict[] = [];
  const newBaseConflicts: BaseConflict[] = [];
  for (const { row, tip, baseTip } of tips) {
    const files = (await wt.git.text(['diff', '--name-only', '--no-renames', `${baseTip}...${tip}`], repo)).split('\n').filter(Boolean);
    changed.set(row.taskId, { tip, files: new Set(files) });
    const conflicts = files.length === 0 ? [] : await conflictsBetween(wt, repo, baseTip, tip);
    const conflict = { taskId: row.taskId, baseBranch: row.baseBranch, baseTip, files: conflicts };
    if (conflicts.length > 0) baseConflicts.push(conflict);
    if (wt.store.setBaseConflicts(row.taskId, conflicts, baseTip) && conflicts.length > 0) {
      newBaseConflicts.push(conflict);
      wt.options.domain.events.append({
        type: 'task_conflicts_with_base',
        dedupKey: `task_conflicts_with_base:${row.taskId}:${baseTip}:${conflicts.join(',')}`,
        payload: { taskId: row.taskId, projectId, baseBranch: row.baseBranch, baseTip, files: conflicts, summary: baseConflictSummary(conflict) },
      });
    }
  }
  return { changed, baseConflicts, newBaseConflicts };
}

/** The pairs of tasks whose branches changed the same files (and which of them would conflict), recorded; `fresh`: new or changed. */
async function checkPairs(
  wt: WorktreeContext,
  repo: string,
  changed: Map<number, { tip: string; files: Set<string> }>,
): Promise<{ overlaps: TaskOverlap[]; fresh: TaskOverlap[]; keep: Set<string> }> {
  const overlaps: TaskOverlap[] = [];
  const fresh: TaskOverlap[] = [];
  const keep = new Set<string>();
  const ids = [...changed.keys()].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = changed.get(ids[i]!)!;
      const b = changed.get(ids[j]!)!;
      const files = [...a.files].filter((file) => b.files.has(file)).sort();
      if (files.length === 0) continue;
      const conflicts = await conflictsBetween(wt, repo, a.tip, b.tip);
      const overlap: TaskOverlap = { taskA: ids[i]!, taskB: ids[j]!, files, conflicts, detectedAt: new Date().toISOString() };
      overlaps.push(overlap);
      keep.add(`${overlap.taskA}:${overlap.taskB}`);
      if (wt.store.recordOverlap(overlap.taskA, overlap.taskB, files, conflicts, JSON.stringify([files, conflicts]))) fresh.push(overlap);
    }
  }
  return { overlaps, fresh, keep };
}

/**
 * A task's row, overlaps and conflicts with its base as they are now (the same computation as
 * `svc project overlaps`), for `svc task worktree`, its HTTP answer and the review.
 */
export async function truthOf(wt: WorktreeContext, taskId: number): Promise<{ worktree: TaskWorktree | undefined; overlaps: TaskOverlap[]; open: boolean }> {
  const task = wt.options.domain.tasks.get(taskId);
  const row = wt.store.get(taskId);
  if (!row) return { worktree: undefined, overlaps: [], open: false };
  const project = wt.options.domain.projects.get(task.projectId);
  if (row.state !== 'ACTIVE' || CLOSED_STATUSES.has(task.status) || !isRepositoryRoot(project.repoPath)) return { worktree: row, overlaps: [], open: false };
  // git unusable here (missing, the repository moved): the last recorded answer, rather than no page.
  const truth = await checkOverlaps(wt, task.projectId).catch(() => undefined);
  const overlaps = truth ? truth.overlaps.filter((overlap) => overlap.taskA === taskId || overlap.taskB === taskId) : wt.store.overlapsOf(taskId);
  return { worktree: wt.store.get(taskId), overlaps, open: true };
}

/** The files the task's committed work would conflict in with its base's tip: from the project's git truth while the task is open. */
export async function conflictsWithBaseOf(wt: WorktreeContext, taskId: number, repo: string, row: TaskWorktree): Promise<string[]> {
  const truth = await truthOf(wt, taskId);
  if (truth.open) return truth.worktree?.conflictsWithBase ?? [];
  const [tip, baseTip] = [await tipOf(wt, repo, row.branch), await tipOf(wt, repo, row.baseBranch)];
  return tip && baseTip ? conflictsBetween(wt, repo, baseTip, tip) : [];
}

/** The files a merge of two commits would conflict in (empty: it merges cleanly). */
export async function conflictsBetween(wt: WorktreeContext, repo: string, ours: string, theirs: string): Promise<string[]> {
  const merged = await wt.git.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], repo, { okCodes: [1] });
  return merged.exitCode === 1 ? [...new Set(merged.stdout.trim().split('\n').slice(1).filter(Boolean))].sort() : [];
}

/** Projects with an open task in a worktree: the ones the background check visits (its base may move under it). */
export function projectsWithOpenWorktrees(wt: WorktreeContext): number[] {
  const projects = new Set<number>();
  for (const row of wt.store.list({ states: ['ACTIVE'] })) {
    const task = safeTask(wt.options.domain, row.taskId);
    if (task && !CLOSED_STATUSES.has(task.status)) projects.add(row.projectId);
  }
  return [...projects].sort((a, b) => a - b);
}

/** "task 2 now conflicts with main in app.js". */
export function baseConflictSummary(conflict: Pick<BaseConflict, 'taskId' | 'baseBranch' | 'files'>): string {
  return `task ${conflict.taskId} now conflicts with ${conflict.baseBranch} in ${listFiles(conflict.files)}`;
}

export const truths = new WeakMap<WorktreeContext, Map<number, { signature: string; truth: GitTruth }>>();

/** The last git truth computed per project, kept per host (as the locks are). */
export function truthsOf(wt: WorktreeContext): Map<number, { signature: string; truth: GitTruth }> {
  let map = truths.get(wt);
  if (!map) {
    map = new Map();
    truths.set(wt, map);
  }
  return map;
}
