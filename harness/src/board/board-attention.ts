// The board's groups, in the order a person reads them: what needs them first. The attention itself
// is the one the lifecycle derives for every task record (host/src/features/lifecycle/attention.ts).
import type { Attention } from '@svc-org/host/features/lifecycle';

export const BOARD_ATTENTIONS = ['needs_you', 'ready_for_review', 'conflicts', 'working', 'idle', 'done'] as const satisfies readonly Attention[];
export type BoardAttention = Attention;

/** The words a person reads for each group. */
export const BOARD_GROUP_WORDS: Record<BoardAttention, string> = {
  needs_you: 'needs you',
  ready_for_review: 'ready for review',
  conflicts: 'conflicts',
  working: 'working',
  idle: 'idle',
  done: 'done today',
};
