import { SvcError } from '@svc-org/ai-sdk';

export const TASK_STATUSES = ['TODO', 'IN_PROGRESS', 'IN_REVIEW', 'DONE', 'CANCELLED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * The moves a board allows. Closed tasks (DONE, CANCELLED) reopen to TODO (DONE also straight back
 * to IN_PROGRESS); a cancelled task is never marked DONE without being reopened first.
 */
export const TASK_TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  TODO: ['IN_PROGRESS', 'DONE', 'CANCELLED'],
  IN_PROGRESS: ['TODO', 'IN_REVIEW', 'DONE', 'CANCELLED'],
  IN_REVIEW: ['TODO', 'IN_PROGRESS', 'DONE', 'CANCELLED'],
  DONE: ['TODO', 'IN_PROGRESS'],
  CANCELLED: ['TODO'],
};

export function assertTaskTransition(taskId: number, from: TaskStatus, to: TaskStatus): void {
  if (from === to || TASK_TRANSITIONS[from].includes(to)) return;
  throw new SvcError({
    code: 'invalid_status_transition',
    message: `task ${taskId} cannot move from ${from} to ${to} (allowed: ${TASK_TRANSITIONS[from].join(', ')})`,
    details: { taskId, from, to, allowed: [...TASK_TRANSITIONS[from]] },
  });
}
