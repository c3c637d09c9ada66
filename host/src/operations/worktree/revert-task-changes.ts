import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const revertTaskChanges = defineOperation({
  name: 'revert_task_changes',
  group: 'review',
  description:
    "Undo what a task changed in one file of its live worktree before it is merged: the whole file back to its base content (a file the task added is deleted), or one hunk of its diff. The file as it was is copied under the service's home first; dryRun shows what would be undone.",
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      /** The file, relative to the repository, as the diff names it (a name, as review comments take it: the host reads it inside the task's worktree only). */
      filename: z.string().min(1).max(4096),
      /** The hunk's index in the file's diff (from 0); absent: the whole file. */
      hunk: z.number().int().min(0).optional(),
      /** The hunk's `@@ … @@` line as shown: a different hunk there is refused (revert_stale). */
      hunkHeader: z.string().min(1).max(1000).optional(),
      dryRun: z.boolean().optional(),
    })
    .strict(),
  output: z.object({
    taskId: z.number().int(),
    path: z.string(),
    hunk: z.number().int().nullable(),
    patch: z.string(),
    additions: z.number().int(),
    deletions: z.number().int(),
    action: z.enum(['restore', 'delete', 'undo_hunk']),
    savedCopy: z.string().nullable(),
    dryRun: z.boolean(),
  }),
  http: { method: 'POST', path: '/api/tasks/:taskId/revert' },
  handler: (input, ctx) => {
    const { taskId, filename, ...request } = input;
    return taskWorktreesOf(ctx.services).revert(taskId, { path: filename, ...request });
  },
});
