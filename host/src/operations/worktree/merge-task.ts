import { z } from 'zod';
import { mergeTask as mergeTaskWork, TaskStatusAfterSchema } from '../../features/lifecycle/index.js';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const mergeTask = defineOperation({
  name: 'merge_task',
  group: 'review',
  description:
    "Land a task's branch on its base branch (a merge commit, or one squashed commit) in the project folder, only when that folder has no uncommitted changes; a conflict merges nothing and names the files. Merging ends the task's work: a running execution is stopped only when asked (stop), and the task moves to DONE unless kept open (keepOpen).",
  readOnly: false,
  idempotent: true,
  runsIn: 'service_if_running',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      squash: z.boolean().optional(),
      message: z.string().trim().min(1).max(10_000).optional(),
      /** Commit what the task's worktree has not committed yet, first; refused otherwise. */
      commitPending: z.boolean().optional(),
      /** Stop the task's running execution once the branch has landed; refused while it runs otherwise. */
      stop: z.boolean().optional(),
      /** Leave the task's status as it is instead of moving it to DONE. */
      keepOpen: z.boolean().optional(),
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
    taskStatus: TaskStatusAfterSchema,
    stoppedExecutionId: z.number().int().nullable(),
  }),
  http: { method: 'POST', path: '/api/tasks/:taskId/merge' },
  handler: (input, ctx) => {
    const { taskId, ...request } = input;
    return mergeTaskWork({ domain: ctx.services.domain, worktrees: taskWorktreesOf(ctx.services), ...(ctx.terminals ? { terminals: ctx.terminals } : {}) }, taskId, request);
  },
});
