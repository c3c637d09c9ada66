// The board's groups, in the order a person reads them: what needs them first.
import type { ExecutionRecord, TaskRecord } from '../../../host/src/features/domain/index.js';

export const BOARD_ATTENTIONS = ['needs_you', 'ready_for_review', 'conflicts', 'working', 'idle', 'done'] as const;
export type BoardAttention = (typeof BOARD_ATTENTIONS)[number];

/** The words a person reads for each group. */
export const BOARD_GROUP_WORDS: Record<BoardAttention, string> = {
  needs_you: 'needs you',
  ready_for_review: 'ready for review',
  conflicts: 'conflicts',
  working: 'working',
  idle: 'idle',
  done: 'done today',
};

export interface BoardFacts {
  task: TaskRecord;
  execution: ExecutionRecord | undefined;
  /** An OPEN question of the task. */
  question: boolean;
  /** Its worktree differs from its base. */
  changes: boolean;
  merged: boolean;
}

/** What the task asks of the person now, from its status, latest execution, open question and worktree. */
export function boardAttention(facts: BoardFacts): BoardAttention {
  const { task, execution } = facts;
  if (task.status === 'DONE' || task.status === 'CANCELLED') return 'done';
  const live = execution?.status === 'RUNNING' || execution?.status === 'PAUSED';
  if (facts.question || execution?.status === 'PAUSED') return 'needs_you';
  if (!live && execution?.status === 'FAILED' && execution.endReason !== 'stopped' && execution.endReason !== 'service_shutdown') return 'needs_you';
  if (live) return 'working';
  if (facts.merged) return 'idle';
  if (facts.changes || task.status === 'IN_REVIEW') return 'ready_for_review';
  return 'idle';
}
