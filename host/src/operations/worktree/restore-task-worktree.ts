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
  cli: {
    command: 'task restore',
    description: `Bring back a task's worktree as it was when discarded or collected (archives are kept ${ARCHIVE_RETENTION_DAYS} days): its branch, its uncommitted changes and the files git does not hold, byte for byte.`,
    positionals: ['taskId'],
    usage: '<id>',
    expects: 'exactly one task id',
    examples: ['svc task restore 12'],
    text(result, print) {
      if (result.outcome === 'already_restored') print.line(`task ${result.taskId}: its worktree is back already (${result.worktreePath})`);
      else
        print.line(
          `task ${result.taskId}: worktree restored at ${result.worktreePath} on ${result.branch}, as archived at ${result.archivedAt} (${result.files} file${result.files === 1 ? '' : 's'} git does not hold)`,
        );
    },
  },
  handler: (input, ctx) => taskWorktreesOf(ctx.services).restore(input.taskId),
});
