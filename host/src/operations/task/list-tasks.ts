import { z } from 'zod';
import { spelledEnum, TASK_STATUSES, TaskSchema } from '../../features/domain/index.js';
import { defineOperation } from '../define-operation.js';
import { IdSchema } from '../id-schema.js';
import { listOf } from '../list-of.js';
import { RefSchema } from '../ref-schema.js';

export const listTasks = defineOperation({
  name: 'list_tasks',
  group: 'task',
  description: 'List tasks, filtered by project, status or parent task.',
  readOnly: true,
  runsIn: 'any',
  reach: { names: { projectId: 'project', parentTaskId: 'task' } },
  input: z.object({ projectId: RefSchema.optional(), status: spelledEnum(TASK_STATUSES).optional(), parentTaskId: IdSchema.optional() }).strict(),
  output: listOf(TaskSchema),
  http: { method: 'GET', path: '/api/tasks' },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    return {
      items: domain.tasks.list({
        ...(input.projectId !== undefined ? { projectId: domain.projects.resolve(input.projectId).id } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.parentTaskId !== undefined ? { parentTaskId: input.parentTaskId } : {}),
      }),
    };
  },
});
