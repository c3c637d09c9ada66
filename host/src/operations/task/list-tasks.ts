import { z } from 'zod';
import { spelledEnum, TASK_STATUSES } from '../../features/domain/index.js';
import { openApprovalCounts, taskViews, TaskViewSchema } from '../../features/lifecycle/index.js';
import { WorktreeStore } from '../../features/worktrees/worktree-store.js';
import { defineOperation, IdSchema, listOf, RefSchema, scopedItems } from '../../operation-framework/index.js';

export const listTasks = defineOperation({
  name: 'list_tasks',
  group: 'task',
  description: 'List tasks with their project and attention (what each asks of you now), filtered by project, status or parent task.',
  readOnly: true,
  runsIn: 'any',
  readScope: {
    before: (input, scope) => {
      scope.project(input.projectId);
      scope.task(input.parentTaskId);
    },
    after: (output, scope) => scopedItems(output, (item) => scope.visibleProject(item.projectId)),
  },
  reach: { names: { projectId: 'project', parentTaskId: 'task' } },
  input: z.object({ projectId: RefSchema.optional(), status: spelledEnum(TASK_STATUSES).optional(), parentTaskId: IdSchema.optional() }).strict(),
  output: listOf(TaskViewSchema),
  http: { method: 'GET', path: '/api/tasks' },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    const tasks = domain.tasks.list({
        ...(input.projectId !== undefined ? { projectId: domain.projects.resolve(input.projectId).id } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.parentTaskId !== undefined ? { parentTaskId: input.parentTaskId } : {}),
    });
    return { items: taskViews(domain, new WorktreeStore(ctx.services.db), tasks, (ids) => openApprovalCounts(ctx.services.db, ids)) };
  },
});
