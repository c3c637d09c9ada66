import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { BranchNameSchema, TaskWorktreeSchema } from './worktree-schemas.js';

export const prepareTaskWorktree = defineOperation({
  name: 'prepare_task_worktree',
  group: 'review',
  description:
    "Create a task's branch and worktree now (a start does it anyway), optionally from another base branch than the project's; answers where the task runs.",
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema, baseBranch: BranchNameSchema.optional() }).strict(),
  output: z.object({ taskId: z.number().int(), cwd: z.string(), worktree: TaskWorktreeSchema.nullable(), setupOutput: z.string().optional() }),
  http: { method: 'POST', path: '/api/tasks/:taskId/worktree', status: 201 },
  handler: async (input, ctx) => {
    const prepared = await taskWorktreesOf(ctx.services).prepare(input.taskId, input.baseBranch ? { baseBranch: input.baseBranch } : {});
    return { taskId: input.taskId, cwd: prepared.cwd, worktree: prepared.worktree ?? taskWorktreesOf(ctx.services).get(input.taskId) ?? null, ...(prepared.setupOutput ? { setupOutput: prepared.setupOutput } : {}) };
  },
});
