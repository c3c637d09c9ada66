import { z } from 'zod';
import { ISOLATION_MODES, TaskOverlapSchema } from '../../features/worktrees/index.js';

export { ProjectIsolationSchema, TaskOverlapSchema, TaskWorktreeSchema } from '../../features/worktrees/index.js';

/** A git branch name as the person types it; git's own rules are checked by git. */
export const BranchNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((name) => !name.startsWith('-') && !/[\s~^:?*[\\]|\.\.|@\{/.test(name), 'not a valid branch name');

export const IsolationModeSchema = z.enum(ISOLATION_MODES);

export const DiffFileSchema = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  additions: z.number().int(),
  deletions: z.number().int(),
  binary: z.boolean(),
});

export const TaskDiffSchema = z.object({
  taskId: z.number().int(),
  branch: z.string(),
  baseBranch: z.string(),
  mergeBase: z.string(),
  /** Files the branch would conflict in with the base branch's current tip. */
  conflictsWithBase: z.array(z.string()),
  files: z.array(DiffFileSchema),
  additions: z.number().int(),
  deletions: z.number().int(),
  uncommitted: z.boolean(),
  /** The unified diff (absent with `stat`). */
  patch: z.string().optional(),
  /** The patch was cut at 2 MB, at a file boundary. */
  truncated: z.boolean(),
  /** The commit the task's branch was merged into its base as; null until merged. */
  mergedCommit: z.string().nullable(),
});

export const LostCommitSchema = z.object({ sha: z.string(), subject: z.string() });

/** What only a worktree holds, by kind. */
export const WorktreeHoldingsSchema = z.object({ uncommitted: z.array(z.string()), untracked: z.array(z.string()), ignored: z.array(z.string()) });

export const TaskOverlapsSchema = z.object({ taskId: z.number().int(), items: z.array(TaskOverlapSchema) });
