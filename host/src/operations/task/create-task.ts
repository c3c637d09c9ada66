import { TaskCreateSchema, TaskSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

export const createTask = defineOperation({
  name: 'create_task',
  group: 'task',
  description: 'Create a task in a project (optionally under a parent task, with labels).',
  readOnly: false,
  runsIn: 'any',
  reach: { names: { projectId: 'project', parentTaskId: 'task' } },
  input: TaskCreateSchema.extend({ projectId: RefSchema }),
  output: TaskSchema,
  http: { method: 'POST', path: '/api/tasks', status: 201 },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    return domain.tasks.create({ ...input, projectId: domain.projects.resolve(input.projectId).id });
  },
});
