import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation } from '../define-operation.js';
import { IdSchema } from '../id-schema.js';

export const mergeTask = defineOperation({
  name: 'merge_task',
  group: 'review',
  description:
    "Land a task's branch on its base branch (a merge commit, or one squashed commit) in the project folder, only when that folder has no uncommitted changes; a conflict merges nothing and names the files.",
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      squash: z.boolean().optional(),
      message: z.string().trim().min(1).max(10_000).optional(),
      /** Commit what the task's worktree has not committed yet, first; refused otherwise. */
      commitPending: z.boolean().optional(),
    })
    .strict(),
  output: z.object({
    taskId: z.number().int(),
    outcome: z.enum(['merged', 'already_merged']),
    branch: z.string(),
    baseBranch: z.string(),
    commit: z.string(),
    squash: z.boolean(),
    files: z.array(z.string()),
    committedPending: z.boolean(),
  }),
  http: { method: 'POST', path: '/api/tasks/:taskId/merge' },
  handler: (input, ctx) => {
    const { taskId, ...request } = input;
    return taskWorktreesOf(ctx.services).merge(taskId, request);
  },
});
