import { z } from 'zod';
import { discardTask, TaskStatusAfterSchema } from '../../features/lifecycle/index.js';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { LostCommitSchema, WorktreeHoldingsSchema } from './worktree-schemas.js';

export const discardTaskWorktree = defineOperation({
  name: 'discard_task_worktree',
  group: 'review',
  description:
    "Remove a task's worktree and end its work: a running execution is stopped only when asked (stop), and the task moves to CANCELLED unless kept open (keepOpen). The worktree is archived first for 7 days (restore_task_worktree brings it back); it is refused while it holds uncommitted changes, untracked files or ignored files a person may have written (held lists them), unless commitPending commits the changes to its branch and force confirms the rest. Its branch is kept while it has commits its base lacks, unless deleteBranch names the tip shown (expectTip); dryRun shows what would be lost.",
  readOnly: false,
  destructive: true,
  runsIn: 'service_if_running',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      deleteBranch: z.boolean().optional(),
      /** The branch tip (7+ hex digits) the person saw the commits of; required to delete unmerged commits. */
      expectTip: z.string().regex(/^[0-9a-f]{7,40}$/, 'expectTip is 7 to 40 hex digits').optional(),
      commitPending: z.boolean().optional(),
      /** The person saw what only the worktree holds (dryRun's `held`) and confirms removing it (it is archived). */
      force: z.boolean().optional(),
      dryRun: z.boolean().optional(),
      /** Stop the task's running execution first; refused while it runs otherwise. */
      stop: z.boolean().optional(),
      /** Leave the task's status as it is instead of moving it to CANCELLED. */
      keepOpen: z.boolean().optional(),
    })
    .strict(),
  output: z.object({
    taskId: z.number().int(),
    worktreeRemoved: z.boolean(),
    branch: z.string(),
    branchDeleted: z.boolean(),
    unmergedCommits: z.array(LostCommitSchema),
    committedPending: z.boolean(),
    taskStatus: TaskStatusAfterSchema,
    stoppedExecutionId: z.number().int().nullable(),
    /** What only the worktree held: uncommitted changes, untracked files, ignored files that are not unchanged copies. */
    held: WorktreeHoldingsSchema,
    /** The worktree was archived before it was removed. */
    archived: z.boolean(),
  }),
  http: { method: 'POST', path: '/api/tasks/:taskId/discard' },
  handler: (input, ctx) => {
    const { taskId, ...request } = input;
    return discardTask({ domain: ctx.services.domain, worktrees: taskWorktreesOf(ctx.services), ...(ctx.terminals ? { terminals: ctx.terminals } : {}) }, taskId, request);
  },
});
