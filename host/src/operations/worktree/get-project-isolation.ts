import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';
import { ProjectIsolationSchema } from './worktree-schemas.js';

export const getProjectIsolation = defineOperation({
  name: 'get_project_isolation',
  group: 'review',
  description: "A project's task isolation: worktree (each task on its own branch and git worktree) or none, its base branch and set-up command.",
  readOnly: true,
  runsIn: 'any',
  reach: { names: { projectId: 'project' } },
  input: z.object({ projectId: RefSchema }).strict(),
  output: ProjectIsolationSchema,
  http: { method: 'GET', path: '/api/projects/:projectId/isolation' },
  handler: (input, ctx) => taskWorktreesOf(ctx.services).isolationOf(ctx.services.domain.projects.resolve(input.projectId).id),
});
