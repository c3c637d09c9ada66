// The rows behind task worktrees: a project's isolation setting, each task's branch and worktree,
// and the last overlap found between two tasks.
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';

export const ISOLATION_MODES = ['worktree', 'none'] as const;
export type IsolationMode = (typeof ISOLATION_MODES)[number];

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
export const ProjectIsolationSchema = z.lazy(() =>
  z.object({
    projectId: z.number(),
    /** As set; null means the default (worktree for a git repository, else none). */
    isolation: z.enum(ISOLATION_MODES).nullable(),
    /** What applies now, the default resolved. */
    effective: z.enum(ISOLATION_MODES),
    /** The branch tasks start from; null: the repository's current branch. */
    baseBranch: z.string().nullable(),
    /** Run in a fresh worktree before the CLI starts. */
    setupCommand: z.string().nullable(),
  }),
);
export type ProjectIsolation = z.infer<typeof ProjectIsolationSchema>;

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
export const TaskWorktreeSchema = z.lazy(() =>
  z.object({
    taskId: z.number(),
    projectId: z.number(),
    branch: z.string(),
    baseBranch: z.string(),
    baseCommit: z.string().nullable(),
    worktreePath: z.string(),
    state: z.enum(['CREATING', 'ACTIVE', 'REMOVED']),
    mergedCommit: z.string().nullable(),
    /** Files the branch would conflict in with its base branch's tip when last checked; null: not checked yet. */
    conflictsWithBase: z.array(z.string()).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    removedAt: z.string().nullable(),
  }),
);
export type TaskWorktree = z.infer<typeof TaskWorktreeSchema>;

// Built at its first parse (z.lazy): a command that reads no worktree row never constructs it.
/** A `task_worktrees` row (all its columns, as `SELECT *` reads them) as a TaskWorktree. */
export const TaskWorktreeRowSchema = z.lazy(() =>
  z
    .object({
      task_id: z.number(),
      project_id: z.number(),
      branch: z.string(),
      base_branch: z.string(),
      base_commit: z.string().nullable(),
      worktree_path: z.string(),
      state: z.enum(['CREATING', 'ACTIVE', 'REMOVED']),
      merged_commit: z.string().nullable(),
      base_conflicts: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string(),
      removed_at: z.string().nullable(),
    })
    .transform(
      (row): TaskWorktree => ({
        taskId: row.task_id,
        projectId: row.project_id,
        branch: row.branch,
        baseBranch: row.base_branch,
        baseCommit: row.base_commit,
        worktreePath: row.worktree_path,
        state: row.state,
        mergedCommit: row.merged_commit,
        conflictsWithBase: row.base_conflicts === null ? null : (JSON.parse(row.base_conflicts) as string[]),
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        removedAt: row.removed_at,
      }),
    ),
);

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
export const TaskOverlapSchema = z.lazy(() =>
  z.object({
    taskA: z.number(),
    taskB: z.number(),
    /** Files both tasks changed since their merge base. */
    files: z.array(z.string()),
    /** Of those, the ones whose changes would conflict. */
    conflicts: z.array(z.string()),
    detectedAt: z.string(),
  }),
);
export type TaskOverlap = z.infer<typeof TaskOverlapSchema>;

export class WorktreeStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  isolationRow(projectId: number): { isolation: IsolationMode | null; baseBranch: string | null; setupCommand: string | null } {
    const row = this.db.prepare('SELECT * FROM project_isolation WHERE project_id = ?').get(projectId) as
      | { isolation: IsolationMode | null; base_branch: string | null; setup_command: string | null }
      | undefined;
    return { isolation: row?.isolation ?? null, baseBranch: row?.base_branch ?? null, setupCommand: row?.setup_command ?? null };
  }

  /** `null` clears a setting; an absent field keeps it. */
  setIsolation(projectId: number, patch: { isolation?: IsolationMode | null; baseBranch?: string | null; setupCommand?: string | null }): void {
    const current = this.isolationRow(projectId);
    const pick = <K extends keyof typeof current>(key: K) => (patch[key] === undefined ? current[key] : patch[key]);
    this.db
      .prepare(
        `INSERT INTO project_isolation (project_id, isolation, base_branch, setup_command, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (project_id) DO UPDATE SET isolation = excluded.isolation, base_branch = excluded.base_branch,
           setup_command = excluded.setup_command, updated_at = excluded.updated_at`,
      )
      .run(projectId, pick('isolation'), pick('baseBranch'), pick('setupCommand'), this.now().toISOString());
  }

  get(taskId: number): TaskWorktree | undefined {
    const row = this.db.prepare('SELECT * FROM task_worktrees WHERE task_id = ?').get(taskId);
    return row === undefined ? undefined : TaskWorktreeRowSchema.parse(row);
  }

  /** The worktrees of these tasks (those that have one), by task id, in one read. */
  getMany(taskIds: readonly number[]): Map<number, TaskWorktree> {
    const found = new Map<number, TaskWorktree>();
    if (taskIds.length === 1) {
      const one = this.get(taskIds[0]!);
      if (one) found.set(one.taskId, one);
      return found;
    }
    if (taskIds.length === 0) return found;
    const rows = this.db.prepare('SELECT * FROM task_worktrees WHERE task_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(taskIds));
    for (const row of rows) {
      const worktree = TaskWorktreeRowSchema.parse(row);
      found.set(worktree.taskId, worktree);
    }
    return found;
  }

  list(filter: { projectId?: number; states?: TaskWorktree['state'][] } = {}): TaskWorktree[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.projectId !== undefined) (where.push('project_id = ?'), args.push(filter.projectId));
    if (filter.states) (where.push(`state IN (${filter.states.map(() => '?').join(', ')})`), args.push(...filter.states));
    return this.db
      .prepare(`SELECT * FROM task_worktrees ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY task_id`)
      .all(...args)
      .map((row) => TaskWorktreeRowSchema.parse(row));
  }

  /** Written before git runs: a kill after this leaves a row that says what to finish or undo. */
  begin(row: { taskId: number; projectId: number; branch: string; baseBranch: string; worktreePath: string }): TaskWorktree {
    const at = this.now().toISOString();
    this.db
      .prepare(
        `INSERT INTO task_worktrees (task_id, project_id, branch, base_branch, worktree_path, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'CREATING', ?, ?)
         ON CONFLICT (task_id) DO UPDATE SET state = 'CREATING', worktree_path = excluded.worktree_path, removed_at = NULL, updated_at = excluded.updated_at`,
      )
      .run(row.taskId, row.projectId, row.branch, row.baseBranch, row.worktreePath, at, at);
    return this.get(row.taskId)!;
  }

  activate(taskId: number, baseCommit: string): TaskWorktree {
    this.db
      .prepare("UPDATE task_worktrees SET state = 'ACTIVE', base_commit = COALESCE(base_commit, ?), updated_at = ? WHERE task_id = ?")
      .run(baseCommit, this.now().toISOString(), taskId);
    return this.get(taskId)!;
  }

  markRemoved(taskId: number): void {
    const at = this.now().toISOString();
    this.db.prepare("UPDATE task_worktrees SET state = 'REMOVED', removed_at = ?, updated_at = ? WHERE task_id = ?").run(at, at, taskId);
  }

  markMerged(taskId: number, commit: string): void {
    this.db.prepare('UPDATE task_worktrees SET merged_commit = ?, updated_at = ? WHERE task_id = ?').run(commit, this.now().toISOString(), taskId);
  }

  /** Records what the branch would conflict in with its base's tip; true when that changed. */
  setBaseConflicts(taskId: number, files: string[], baseTip: string): boolean {
    const previous = this.get(taskId)?.conflictsWithBase;
    const changed = previous === null || previous === undefined || JSON.stringify(previous) !== JSON.stringify(files);
    this.db.prepare('UPDATE task_worktrees SET base_conflicts = ?, base_conflicts_tip = ? WHERE task_id = ?').run(JSON.stringify(files), baseTip, taskId);
    return changed;
  }

  /** Records the overlap of a pair; true when it is new or its signature changed. */
  recordOverlap(taskA: number, taskB: number, files: string[], conflicts: string[], signature: string): boolean {
    const [a, b] = taskA < taskB ? [taskA, taskB] : [taskB, taskA];
    const previous = this.db.prepare('SELECT signature FROM task_overlaps WHERE task_a = ? AND task_b = ?').get(a, b) as { signature: string } | undefined;
    if (previous?.signature === signature) return false;
    this.db
      .prepare(
        `INSERT INTO task_overlaps (task_a, task_b, files, conflicts, signature, detected_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (task_a, task_b) DO UPDATE SET files = excluded.files, conflicts = excluded.conflicts, signature = excluded.signature,
           detected_at = excluded.detected_at`,
      )
      .run(a, b, JSON.stringify(files), JSON.stringify(conflicts), signature, this.now().toISOString());
    return true;
  }

  clearOverlap(taskA: number, taskB: number): void {
    const [a, b] = taskA < taskB ? [taskA, taskB] : [taskB, taskA];
    this.db.prepare('DELETE FROM task_overlaps WHERE task_a = ? AND task_b = ?').run(a, b);
  }

  /** Drops the recorded pairs of a project's tasks that no longer overlap (`keep`: "a:b" of the ones that do). */
  clearOverlapsExcept(projectId: number, keep: Set<string>): void {
    const rows = this.db
      .prepare('SELECT task_a, task_b FROM task_overlaps WHERE task_a IN (SELECT task_id FROM task_worktrees WHERE project_id = ?) OR task_b IN (SELECT task_id FROM task_worktrees WHERE project_id = ?)')
      .all(projectId, projectId) as { task_a: number; task_b: number }[];
    for (const row of rows) if (!keep.has(`${row.task_a}:${row.task_b}`)) this.clearOverlap(row.task_a, row.task_b);
  }

  overlapsOf(taskId: number): TaskOverlap[] {
    return (this.db.prepare('SELECT * FROM task_overlaps WHERE task_a = ? OR task_b = ? ORDER BY detected_at').all(taskId, taskId) as OverlapRow[]).map(overlapOf);
  }

  /** overlapsOf each of these tasks, in one read (a task with none is left out). */
  overlapsOfMany(taskIds: readonly number[]): Map<number, TaskOverlap[]> {
    const found = new Map<number, TaskOverlap[]>();
    if (taskIds.length === 0) return found;
    const ids = JSON.stringify(taskIds);
    const rows = this.db
      .prepare('SELECT * FROM task_overlaps WHERE task_a IN (SELECT value FROM json_each(?)) OR task_b IN (SELECT value FROM json_each(?)) ORDER BY detected_at')
      .all(ids, ids) as OverlapRow[];
    const wanted = new Set(taskIds);
    for (const overlap of rows.map(overlapOf)) {
      for (const taskId of new Set([overlap.taskA, overlap.taskB])) {
        if (!wanted.has(taskId)) continue;
        const list = found.get(taskId) ?? [];
        list.push(overlap);
        found.set(taskId, list);
      }
    }
    return found;
  }
}

/** A `task_overlaps` row (all its columns, as `SELECT *` reads them). */
export interface OverlapRow {
  task_a: number;
  task_b: number;
  files: string;
  conflicts: string;
  detected_at: string;
}

export function overlapOf(row: OverlapRow): TaskOverlap {
  return {
    taskA: row.task_a,
    taskB: row.task_b,
    files: JSON.parse(row.files) as string[],
    conflicts: JSON.parse(row.conflicts) as string[],
    detectedAt: row.detected_at,
  };
}
