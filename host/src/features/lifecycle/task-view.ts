// A task as its record answers show it: its columns, its project's name, its derived attention and
// the commit its branch landed as.
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';
import type { Domain, ExecutionRecord, TaskRecord } from '../domain/index.js';
import { TASK_STATUSES, TaskRowSchema, TaskSchema } from '../domain/index.js';
import type { TaskOverlap, TaskWorktree, WorktreeStore } from '../worktrees/index.js';
import { openApprovalCounts } from './open-approvals.js';
import { AttentionSchema, attentionOf, ConflictsWithBaseSchema, type AttentionFacts, type ConflictsWithBase } from './attention.js';

export const TaskViewSchema = TaskSchema.extend({
  /** The name of the project it belongs to. */
  projectName: z.string(),
  /** What it asks of the person now (see attentionOf). */
  attention: AttentionSchema,
  /** The commit its branch was merged (or squashed) into its base as; null until merged. */
  mergedCommit: z.string().nullable(),
  /** Permission requests of its CLI waiting for an answer (`svc task approvals`); above 0 the task needs you. */
  openApprovals: z.number().int(),
  /** The files its branch would conflict in with its base branch's tip when last checked; null when none. */
  conflictsWithBase: ConflictsWithBaseSchema.nullable(),
});
export type TaskView = z.output<typeof TaskViewSchema>;

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

/**
 * One task's view (get_task): the task, its project's name and its open approval count come in one
 * statement (three before, each a read of its own: a call's largest cost in `svc mcp`), then its
 * latest execution and worktree as taskViews reads them. A task that is not there fails as
 * `domain.tasks.get` fails.
 */
export function taskView(db: Db, domain: Domain, worktrees: WorktreeStore, id: number): TaskView {
  const row = db
    .prepare(
      `SELECT t.*, (
        SELECT json_group_array(name) FROM (
          SELECT l.name FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id ORDER BY l.name
        )
      ) AS labels, p.name AS view_project_name, COALESCE(a.open_count, 0) AS view_open_approvals
      FROM tasks t JOIN projects p ON p.id = t.project_id LEFT JOIN task_open_approvals a ON a.task_id = t.id WHERE t.id = ?`,
    )
    .get(id) as { view_project_name: string; view_open_approvals: number } | undefined;
  if (!row) return taskViews(domain, worktrees, [domain.tasks.get(id)], (ids) => openApprovalCounts(db, ids))[0]!;
  const task = TaskRowSchema.parse(row);
  return viewsOf(domain, worktrees, [task], new Map([[task.id, Number(row.view_open_approvals)]]), new Map([[task.projectId, row.view_project_name]]))[0]!;
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
    const facts = factsOf(domain, worktrees, task, latest.get(task.id), worktreeOf.get(task.id), overlapsOf.get(task.id) ?? [], approvals.get(task.id) ?? 0, known);
    return { ...task, projectName, attention: attentionOf(facts), mergedCommit: facts.mergedCommit, openApprovals: facts.openApprovals, conflictsWithBase: facts.conflictsWithBase };
  });
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
