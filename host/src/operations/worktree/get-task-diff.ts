import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { TaskDiffSchema } from './worktree-schemas.js';

export const getTaskDiff = defineOperation({
  name: 'get_task_diff',
  group: 'review',
  description:
    "What a task changed: its branch (and, in its live worktree, what it has not committed yet) against the merge base with its base branch; files with counts and the unified diff (stat: counts only).",
  readOnly: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema, stat: z.boolean().optional() }).strict(),
  output: TaskDiffSchema,
  http: { method: 'GET', path: '/api/tasks/:taskId/diff' },
  handler: async (input, ctx) => {
    const worktrees = taskWorktreesOf(ctx.services);
    const diff = await worktrees.diff(input.taskId, { stat: input.stat === true });
    return { ...diff, mergedCommit: worktrees.get(input.taskId)?.mergedCommit ?? null };
  },
});
