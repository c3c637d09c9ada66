import { TaskSchema, TaskUpdateSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const updateTask = defineOperation({
  name: 'update_task',
  group: 'task',
  description: 'Change a task: title, description, status, parent, labels or unattended mode.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { id: 'task', parentTaskId: 'task' } },
  input: TaskUpdateSchema.extend({ id: IdSchema }),
  output: TaskSchema,
  http: { method: 'PATCH', path: '/api/tasks/:id' },
  handler: (input, ctx) => {
    const { id, ...patch } = input;
    return ctx.services.domain.tasks.update(id, patch);
  },
});
