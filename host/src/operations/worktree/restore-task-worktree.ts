import { z } from 'zod';
import { ARCHIVE_RETENTION_DAYS, taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const restoreTaskWorktree = defineOperation({
  name: 'restore_task_worktree',
  group: 'review',
  description: `Bring back a task's worktree from the archive its discard or collection made (kept ${ARCHIVE_RETENTION_DAYS} days): its branch at the archived tip, its staged and uncommitted changes, and its untracked and ignored files, byte for byte.`,
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema }).strict(),
  output: z.object({
    taskId: z.number().int(),
    outcome: z.enum(['restored', 'already_restored']),
    branch: z.string(),
    worktreePath: z.string(),
    files: z.number().int(),
    archivedAt: z.string(),
  }),
  http: { method: 'POST', path: '/api/tasks/:taskId/restore' },
  handler: (input, ctx) => taskWorktreesOf(ctx.services).restore(input.taskId),
});
