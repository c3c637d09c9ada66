import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation } from '../define-operation.js';
import { IdSchema } from '../id-schema.js';
import { LostCommitSchema } from './worktree-schemas.js';

export const discardTaskWorktree = defineOperation({
  name: 'discard_task_worktree',
  group: 'review',
  description:
    "Remove a task's worktree. Its branch is kept while it has commits its base lacks, unless deleteBranch names the tip shown (expectTip); dryRun shows what would be lost.",
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      deleteBranch: z.boolean().optional(),
      /** The branch tip (7+ hex digits) the person saw the commits of; required to delete unmerged commits. */
      expectTip: z.string().regex(/^[0-9a-f]{7,40}$/, 'expectTip is 7 to 40 hex digits').optional(),
      commitPending: z.boolean().optional(),
      dryRun: z.boolean().optional(),
    })
    .strict(),
  output: z.object({
    taskId: z.number().int(),
    worktreeRemoved: z.boolean(),
    branch: z.string(),
    branchDeleted: z.boolean(),
    unmergedCommits: z.array(LostCommitSchema),
    committedPending: z.boolean(),
  }),
  http: { method: 'POST', path: '/api/tasks/:taskId/discard' },
  handler: (input, ctx) => {
    const { taskId, ...request } = input;
    return taskWorktreesOf(ctx.services).discard(taskId, request);
  },
});
