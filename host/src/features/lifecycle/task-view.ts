// A task as its record answers show it: its columns, its project's name, its derived attention and
// the commit its branch landed as.
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';
import type { Domain, ExecutionRecord, TaskRecord } from '../domain/index.js';
import { builtOnFirstUse, ExecutionRowSchema, TASK_STATUSES, TaskRowSchema, taskSchema } from '../domain/index.js';
// From the store's own file: the feature's index would evaluate the whole worktree feature (git, merges, archives) for a read.
import { overlapOf, TaskWorktreeRowSchema, type OverlapRow, type TaskOverlap, type TaskWorktree, type WorktreeStore } from '../worktrees/worktree-store.js';
import { openApprovalCounts } from './open-approvals.js';
import { attentionOf, attentionSchema, conflictsWithBaseSchema, type AttentionFacts, type ConflictsWithBase } from './attention.js';

/** Built at its first use: `svc task list` printing its table checks no answer with it. */
export const taskViewSchema = builtOnFirstUse(() =>
  taskSchema().extend({
    /** The name of the project it belongs to. */
    projectName: z.string(),
    /** What it asks of the person now (see attentionOf). */
    attention: attentionSchema(),
    /** The commit its branch was merged (or squashed) into its base as; null until merged. */
    mergedCommit: z.string().nullable(),
    /** Permission requests of its CLI waiting for an answer (`svc task approvals`); above 0 the task needs you. */
    openApprovals: z.number().int(),
    /** The files its branch would conflict in with its base branch's tip when last checked; null when none. */
    conflictsWithBase: conflictsWithBaseSchema().nullable(),
  }),
);
export type TaskView = z.output<ReturnType<typeof taskViewSchema>>;

type TaskFacts = AttentionFacts & { mergedCommit: string | null; openApprovals: number; conflictsWithBase: ConflictsWithBase | null };

/** The facts attentionOf reads, from the database. */
export function attentionFactsOf(
  domain: Domain,
  worktrees: WorktreeStore,
  task: TaskRecord,
  openApprovals: (taskId: number) => number = () => 0,
): TaskFacts {
  const worktree = worktrees.get(task.id);
  const overlaps = worktree?.state === 'ACTIVE' ? worktrees.overlapsOf(task.id) : [];
  return factsOf(domain, worktrees, task, domain.executions.latestForTask(task.id), worktree, overlaps, openApprovals(task.id));
}

/** What a list already read of its tasks, for the other task an overlap names (read from the database when not in the list). */
interface KnownOthers {
  tasks?: ReadonlyMap<number, TaskRecord>;
  /** The worktrees of the list's tasks (a task of the list without one is absent). */
  worktrees?: ReadonlyMap<number, TaskWorktree>;
}

function factsOf(
  domain: Domain,
  worktrees: WorktreeStore,
  task: TaskRecord,
  latest: ExecutionRecord | undefined,
  worktree: TaskWorktree | undefined,
  overlaps: readonly TaskOverlap[],
  openApprovals: number,
  known: KnownOthers = {},
): TaskFacts {
  const conflicts = new Set<string>();
  // What the overlap check last found against the other open tasks' branches (a pair whose other
  // side closed or lost its worktree no longer counts).
  for (const overlap of worktree?.state === 'ACTIVE' ? overlaps : []) {
    const other = overlap.taskA === task.id ? overlap.taskB : overlap.taskA;
    if (overlap.conflicts.length === 0) continue;
    const listed = known.tasks?.get(other);
    const open = listed ? listed.status !== 'DONE' && listed.status !== 'CANCELLED' : isOpen(domain, other);
    if (!open || (listed ? known.worktrees?.get(other) : worktrees.get(other))?.state !== 'ACTIVE') continue;
    for (const file of overlap.conflicts) conflicts.add(file);
  }
  // And what it would conflict in with its base branch's tip when last checked (after every merge).
  const withBase = worktree?.state === 'ACTIVE' ? (worktree.conflictsWithBase ?? []) : [];
  for (const file of withBase) conflicts.add(file);
  return {
    taskStatus: task.status,
    ...(latest ? { execution: { status: latest.status, outcome: latest.outcome, waitingSince: latest.waitingSince, leftChanges: latest.leftChanges } } : {}),
    ...(worktree ? { worktree: { mergedCommit: worktree.mergedCommit } } : {}),
    conflicts: [...conflicts].sort(),
    mergedCommit: worktree?.mergedCommit ?? null,
    openApprovals,
    conflictsWithBase: withBase.length > 0 ? { baseBranch: worktree!.baseBranch, files: [...withBase].sort() } : null,
  };
}

/**
 * Task records with their project's name and attention, for the record answers. The facts of the
 * whole list are read together (one read per fact table and per project, however many tasks);
 * `openApprovals` answers the open approval count of each task it knows of (see openApprovalCounts).
 */
export function taskViews(
  domain: Domain,
  worktrees: WorktreeStore,
  tasks: readonly TaskRecord[],
  // Required, so that no face shows an attention that forgets a waiting permission request.
  openApprovals: (taskIds: readonly number[]) => ReadonlyMap<number, number>,
): TaskView[] {
  return viewsOf(domain, worktrees, tasks, openApprovals(tasks.map((task) => task.id)), new Map<number, string>());
}

/** What taskView's statement answers beside the task's columns. */
interface ViewColumns {
  view_project_name: string;
  view_open_approvals: number;
  /** Its latest execution's row as a JSON object; null when it never ran. */
  view_latest_execution: string | null;
  /** Its worktree's row as a JSON object; null when it has none. */
  view_worktree: string | null;
  /** Its overlap rows as a JSON array, oldest first; only while its worktree is active (the only time they count), else empty. */
  view_overlaps: string;
}

/**
 * One task's view (get_task) from one statement (each is most of a call's cost in `svc mcp`): the
 * task, its project's name, its open approval count, and its latest execution, worktree and overlaps
 * as JSON objects of their rows, parsed with the rows' own schemas; the answer is taskViews' for the
 * same task. What a task does not have costs no subquery: its labels are gathered (and sorted) only
 * when it has one, and its overlaps read only while its worktree is active. A task that is not
 * there fails as `domain.tasks.get` fails.
 */
export function taskView(db: Db, domain: Domain, worktrees: WorktreeStore, id: number): TaskView {
  const row = db
    .prepare(
      `SELECT t.*, CASE WHEN EXISTS (SELECT 1 FROM task_labels tl WHERE tl.task_id = t.id) THEN (
        SELECT json_group_array(name) FROM (
          SELECT l.name FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id ORDER BY l.name
        )
      ) ELSE '[]' END AS labels, p.name AS view_project_name, COALESCE(a.open_count, 0) AS view_open_approvals, (
        SELECT json_object('id', e.id, 'task_id', e.task_id, 'connection_id', e.connection_id, 'connection_name', e.connection_name,
          'provider_id', e.provider_id, 'mode', e.mode, 'status', e.status, 'session_id', e.session_id, 'pid', e.pid,
          'pid_start_time', e.pid_start_time, 'exit_code', e.exit_code, 'exit_signal', e.exit_signal, 'end_reason', e.end_reason,
          'outcome', e.outcome, 'waiting_since', e.waiting_since, 'left_changes', e.left_changes, 'error_code', e.error_code,
          'error_message', e.error_message, 'started_at', e.started_at, 'ended_at', e.ended_at, 'unsupported_attachments', e.unsupported_attachments)
        FROM executions e WHERE e.task_id = t.id ORDER BY e.id DESC LIMIT 1
      ) AS view_latest_execution, CASE WHEN w.task_id IS NULL THEN NULL ELSE
        json_object('task_id', w.task_id, 'project_id', w.project_id, 'branch', w.branch, 'base_branch', w.base_branch,
          'base_commit', w.base_commit, 'worktree_path', w.worktree_path, 'state', w.state, 'merged_commit', w.merged_commit,
          'base_conflicts', w.base_conflicts, 'created_at', w.created_at, 'updated_at', w.updated_at, 'removed_at', w.removed_at)
      END AS view_worktree, CASE WHEN w.state = 'ACTIVE' THEN (
        SELECT json_group_array(json_object('task_a', o.task_a, 'task_b', o.task_b, 'files', o.files, 'conflicts', o.conflicts, 'detected_at', o.detected_at))
        FROM (SELECT * FROM task_overlaps WHERE task_a = t.id OR task_b = t.id ORDER BY detected_at) o
      ) ELSE '[]' END AS view_overlaps
      FROM tasks t JOIN projects p ON p.id = t.project_id LEFT JOIN task_open_approvals a ON a.task_id = t.id LEFT JOIN task_worktrees w ON w.task_id = t.id
      WHERE t.id = ?`,
    )
    .get(id) as ViewColumns | undefined;
  if (!row) return taskViews(domain, worktrees, [domain.tasks.get(id)], (ids) => openApprovalCounts(db, ids))[0]!;
  const task = TaskRowSchema.parse(row);
  const latest = row.view_latest_execution === null ? undefined : ExecutionRowSchema.parse(JSON.parse(row.view_latest_execution));
  const worktree = row.view_worktree === null ? undefined : TaskWorktreeRowSchema.parse(JSON.parse(row.view_worktree));
  const overlaps = (JSON.parse(row.view_overlaps) as OverlapRow[]).map(overlapOf);
  const known: KnownOthers = { tasks: new Map([[task.id, task]]), worktrees: new Map(worktree ? [[task.id, worktree]] : []) };
  return viewOf(domain, worktrees, task, row.view_project_name, latest, worktree, overlaps, Number(row.view_open_approvals), known);
}

/** The views of tasks whose open approval counts are read, and whose project names may be (the others are read here). */
function viewsOf(
  domain: Domain,
  worktrees: WorktreeStore,
  tasks: readonly TaskRecord[],
  approvals: ReadonlyMap<number, number>,
  projectNames: Map<number, string>,
): TaskView[] {
  const ids = tasks.map((task) => task.id);
  const latest = domain.executions.latestForTasks(ids);
  const worktreeOf = worktrees.getMany(ids);
  const active = ids.filter((id) => worktreeOf.get(id)?.state === 'ACTIVE');
  const overlapsOf = worktrees.overlapsOfMany(active);
  const known: KnownOthers = { tasks: new Map(tasks.map((task) => [task.id, task])), worktrees: worktreeOf };
  return tasks.map((task) => {
    let projectName = projectNames.get(task.projectId);
    if (projectName === undefined) {
      projectName = domain.projects.nameOf(task.projectId);
      projectNames.set(task.projectId, projectName);
    }
    return viewOf(domain, worktrees, task, projectName, latest.get(task.id), worktreeOf.get(task.id), overlapsOf.get(task.id) ?? [], approvals.get(task.id) ?? 0, known);
  });
}

function viewOf(
  domain: Domain,
  worktrees: WorktreeStore,
  task: TaskRecord,
  projectName: string,
  latest: ExecutionRecord | undefined,
  worktree: TaskWorktree | undefined,
  overlaps: readonly TaskOverlap[],
  openApprovals: number,
  known: KnownOthers,
): TaskView {
  const facts = factsOf(domain, worktrees, task, latest, worktree, overlaps, openApprovals, known);
  // Field by field, not `{ ...task, projectName, … }`: on Node 20 a spread followed by more fields
  // builds a slow object, about 6 µs a view against well under 1 µs (and every later read of it is slower).
  return {
    id: task.id,
    projectId: task.projectId,
    parentTaskId: task.parentTaskId,
    title: task.title,
    description: task.description,
    status: task.status,
    labels: task.labels,
    unattended: task.unattended,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    projectName,
    attention: attentionOf(facts),
    mergedCommit: facts.mergedCommit,
    openApprovals: facts.openApprovals,
    conflictsWithBase: facts.conflictsWithBase,
  };
}

function isOpen(domain: Domain, taskId: number): boolean {
  try {
    const status = domain.tasks.get(taskId).status;
    return status !== 'DONE' && status !== 'CANCELLED';
  } catch {
    return false;
  }
}

/** A task's status after a lifecycle command. */
export const TaskStatusAfterSchema = z.enum(TASK_STATUSES);
