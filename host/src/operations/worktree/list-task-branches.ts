import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, projectInScope, RefSchema } from '../../operation-framework/index.js';

export const listTaskBranches = defineOperation({
  name: 'list_task_branches',
  group: 'review',
  description: "The task branches (svc/…) of the projects' repositories, with the commits each has that its base lacks (unmerged: only those with some).",
  readOnly: true,
  runsIn: 'any',
  reach: { names: { projectId: 'project' } },
  input: z.object({ projectId: RefSchema.optional(), unmerged: z.boolean().optional() }).strict(),
  output: z.object({
    items: z.array(
      z.object({
        projectId: z.number().int(),
        branch: z.string(),
        taskId: z.number().int().nullable(),
        baseBranch: z.string(),
        tip: z.string(),
        unmergedCommits: z.number().int(),
      }),
    ),
  }),
  http: { method: 'GET', path: '/api/task-branches' },
  handler: async (input, ctx) => {
    const projectId = input.projectId === undefined ? undefined : ctx.services.domain.projects.resolve(input.projectId).id;
    const items = await taskWorktreesOf(ctx.services).branches({ ...(projectId !== undefined ? { projectId } : {}), unmerged: input.unmerged === true });
    // A caller with a project scope (a task's own terminal or token) sees its project's branches only.
    const visible = new Set(ctx.services.domain.projects.list().filter((project) => projectInScope(ctx, project)).map((project) => project.id));
    return { items: items.filter((item) => visible.has(item.projectId)) };
  },
});
