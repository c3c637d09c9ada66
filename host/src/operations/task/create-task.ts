import { builtOnFirstUse, taskCreateSchema, taskSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const createTaskInput = builtOnFirstUse(() => taskCreateSchema().extend({ projectId: RefSchema }));

export const createTask = defineOperation({
  name: 'create_task',
  group: 'task',
  description: 'Create a task in a project (optionally under a parent task, with labels).',
  readOnly: false,
  runsIn: 'any',
  reach: { names: { projectId: 'project', parentTaskId: 'task' } },
  get input() {
    return createTaskInput();
  },
  get output() {
    return taskSchema();
  },
  http: { method: 'POST', path: '/api/tasks', status: 201 },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    return domain.tasks.create({ ...input, projectId: domain.projects.resolve(input.projectId).id });
  },
});
