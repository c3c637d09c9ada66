import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';
import { BranchNameSchema, IsolationModeSchema, ProjectIsolationSchema } from './worktree-schemas.js';

export const setProjectIsolation = defineOperation({
  name: 'set_project_isolation',
  group: 'review',
  description:
    "Set a project's task isolation (worktree or none; null restores the default), the base branch its tasks start from and a set-up command run in each fresh worktree; null clears one.",
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z
    .object({
      projectId: RefSchema,
      isolation: IsolationModeSchema.nullable().optional(),
      baseBranch: BranchNameSchema.nullable().optional(),
      setupCommand: z.string().trim().min(1).max(4000).nullable().optional(),
    })
    .strict(),
  output: ProjectIsolationSchema,
  http: { method: 'PUT', path: '/api/projects/:projectId/isolation' },
  handler: (input, ctx) => {
    const { projectId, ...patch } = input;
    return taskWorktreesOf(ctx.services).setIsolation(ctx.services.domain.projects.resolve(projectId).id, patch);
  },
});
