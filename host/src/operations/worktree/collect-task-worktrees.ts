import { z } from 'zod';
import { taskWorktreesOf, ARCHIVE_RETENTION_DAYS, DEFAULT_RETENTION_DAYS } from '../../features/worktrees/index.js';
import { defineOperation } from '../../operation-framework/index.js';

export const collectTaskWorktrees = defineOperation({
  name: 'collect_task_worktrees',
  group: 'review',
  description: `Remove the worktrees of tasks done or cancelled longer than the retention (default ${DEFAULT_RETENTION_DAYS} days; branches stay, each worktree archived first) and prune archives older than ${ARCHIVE_RETENTION_DAYS} days; a worktree holding ignored files a person may have written is kept (kept) unless force. Shows worktree disk use per project; dryRun removes nothing.`,
  readOnly: false,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z.object({ dryRun: z.boolean().optional(), retentionDays: z.number().min(0).max(3650).optional(), force: z.boolean().optional() }).strict(),
  output: z.object({
    removed: z.array(z.number().int()),
    candidates: z.array(z.number().int()),
    /** Worktrees that could not be removed this time, with why; the others were. */
    skipped: z.array(z.object({ taskId: z.number().int(), code: z.string(), message: z.string() })),
    kept: z.array(z.object({ taskId: z.number().int(), files: z.array(z.string()) })),
    archivesPruned: z.number().int(),
    disk: z.array(z.object({ projectId: z.number().int(), worktrees: z.number().int(), bytes: z.number().int() })),
  }),
  http: { method: 'POST', path: '/api/task-worktrees/collect' },
  handler: (input, ctx) =>
    taskWorktreesOf(ctx.services).collect({
      dryRun: input.dryRun === true,
      ...(input.retentionDays !== undefined ? { retentionDays: input.retentionDays } : {}),
      ...(input.force ? { force: true } : {}),
    }),
});
