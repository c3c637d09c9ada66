// The one derived "attention" of a task: what it asks of the person now, computed from its status,
// its latest execution, its worktree and what its branch conflicts with. Every face (CLI, HTTP, MCP,
// the web) reads this one value.
import { z } from 'zod';
import { builtOnFirstUse, type ExecutionOutcome, type ExecutionStatus, type TaskStatus } from '../domain/index.js';

/**
 * - `needs_you`: an open question (its execution is parked), the CLI waiting at its own prompt (its
 *   Stop hook said so), a permission request of its CLI nobody answered yet, or a real failure;
 * - `conflicts`: its branch would conflict with its base or with another open task's branch;
 * - `working`: its CLI is running a turn;
 * - `ready_for_review`: its last execution ended and left changes to review;
 * - `idle`: nothing running and nothing to review (not started, stopped without changes, merged and kept open);
 * - `done`: DONE or CANCELLED.
 */
export const ATTENTIONS = ['needs_you', 'conflicts', 'working', 'ready_for_review', 'idle', 'done'] as const;
export type Attention = (typeof ATTENTIONS)[number];
/** Built at its first use, as the views that carry it are. */
export const attentionSchema = builtOnFirstUse(() => z.enum(ATTENTIONS));

export interface AttentionFacts {
  taskStatus: TaskStatus;
  /** The task's latest execution, if it ever ran. */
  execution?: {
    status: ExecutionStatus;
    outcome: ExecutionOutcome | null;
    waitingSince: string | null;
    leftChanges: boolean | null;
  };
  /** The task's own worktree, if it has one. */
  worktree?: { mergedCommit: string | null };
  /** Files its branch would conflict in (with its base, or with another open task). */
  conflicts: readonly string[];
  /** Permission requests of its CLI still waiting for an answer. */
  openApprovals?: number;
}

export function attentionOf(facts: AttentionFacts): Attention {
  if (facts.taskStatus === 'DONE' || facts.taskStatus === 'CANCELLED') return 'done';
  const execution = facts.execution;
  const live = execution?.status === 'RUNNING' || execution?.status === 'PAUSED';
  if (live && (execution.status === 'PAUSED' || execution.waitingSince !== null)) return 'needs_you';
  if (!live && execution?.outcome === 'failed') return 'needs_you';
  if ((facts.openApprovals ?? 0) > 0) return 'needs_you';
  if (facts.conflicts.length > 0) return 'conflicts';
  if (live) return 'working';
  if (facts.worktree?.mergedCommit) return 'idle';
  if (execution && (execution.leftChanges === true || (execution.leftChanges === null && !facts.worktree && execution.outcome === 'completed'))) return 'ready_for_review';
  if (facts.taskStatus === 'IN_REVIEW') return 'ready_for_review';
  return 'idle';
}

/** The files a task's branch would conflict in with its base branch's tip (built at its first use). */
export const conflictsWithBaseSchema = builtOnFirstUse(() => z.object({ baseBranch: z.string(), files: z.array(z.string()) }));
export type ConflictsWithBase = z.output<ReturnType<typeof conflictsWithBaseSchema>>;

/**
 * A task's attention in words, naming its base branch when that is what it conflicts with
 * ("conflicts with main"; with the files: "conflicts with main in app.js").
 */
export function attentionInWords(task: { attention: Attention; conflictsWithBase: ConflictsWithBase | null }, withFiles = false): string {
  const base = task.conflictsWithBase;
  if (task.attention !== 'conflicts' || !base) return ATTENTION_WORDS[task.attention];
  return `conflicts with ${base.baseBranch}${withFiles ? ` in ${base.files.join(', ')}` : ''}`;
}

/** The words a person reads for each attention. */
export const ATTENTION_WORDS: Record<Attention, string> = {
  needs_you: 'needs you',
  conflicts: 'conflicts',
  working: 'working',
  ready_for_review: 'ready for review',
  idle: 'idle',
  done: 'done',
};
