import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { TaskOverlapSchema, TaskWorktreeSchema } from './worktree-schemas.js';

export const getTaskWorktree = defineOperation({
  name: 'get_task_worktree',
  group: 'review',
  description:
    "A task's branch, worktree folder, base branch and commit (null when it runs in the project folder), the files it would conflict in with its base branch's current tip, and the open tasks whose branches overlap it (computed now, as check_task_overlaps does).",
  readOnly: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema }).strict(),
  output: z.object({ taskId: z.number().int(), worktree: TaskWorktreeSchema.nullable(), overlaps: z.array(TaskOverlapSchema) }),
  http: { method: 'GET', path: '/api/tasks/:taskId/worktree' },
  handler: async (input, ctx) => {
    const { worktree, overlaps } = await taskWorktreesOf(ctx.services).truthOf(input.taskId);
    return { taskId: input.taskId, worktree: worktree ?? null, overlaps };
  },
});
