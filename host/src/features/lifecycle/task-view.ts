// A task as its record answers show it: its columns, its project's name, its derived attention and
// the commit its branch landed as.
import { z } from 'zod';
import type { Domain, TaskRecord } from '../domain/index.js';
import { TASK_STATUSES, TaskSchema } from '../domain/index.js';
import type { WorktreeStore } from '../worktrees/index.js';
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

/** The facts attentionOf reads, from the database. */
export function attentionFactsOf(
  domain: Domain,
  worktrees: WorktreeStore,
  task: TaskRecord,
  openApprovals: (taskId: number) => number = () => 0,
): AttentionFacts & { mergedCommit: string | null; openApprovals: number; conflictsWithBase: ConflictsWithBase | null } {
  const latest = domain.executions.latestForTask(task.id);
  const worktree = worktrees.get(task.id);
  const conflicts = new Set<string>();
  // What the overlap check last found against the other open tasks' branches (a pair whose other
  // side closed or lost its worktree no longer counts).
  for (const overlap of worktree?.state === 'ACTIVE' ? worktrees.overlapsOf(task.id) : []) {
    const other = overlap.taskA === task.id ? overlap.taskB : overlap.taskA;
    if (overlap.conflicts.length === 0 || !isOpen(domain, other) || worktrees.get(other)?.state !== 'ACTIVE') continue;
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
    openApprovals: openApprovals(task.id),
    conflictsWithBase: withBase.length > 0 ? { baseBranch: worktree!.baseBranch, files: [...withBase].sort() } : null,
  };
}

/** Task records with their project's name and attention, for the record answers. */
export function taskViews(domain: Domain, worktrees: WorktreeStore, tasks: readonly TaskRecord[], openApprovals?: (taskId: number) => number): TaskView[] {
  const projectNames = new Map<number, string>();
  return tasks.map((task) => {
    let projectName = projectNames.get(task.projectId);
    if (projectName === undefined) {
      projectName = domain.projects.get(task.projectId).name;
      projectNames.set(task.projectId, projectName);
    }
    const facts = attentionFactsOf(domain, worktrees, task, openApprovals);
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
