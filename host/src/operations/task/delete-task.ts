import { z } from 'zod';
import { TaskSchema } from '../../domain/index.js';
import { defineOperation } from '../define-operation.js';
import { IdSchema } from '../id-schema.js';

export const deleteTask = defineOperation({
  name: 'delete_task',
  group: 'task',
  description: 'Remove a task without children or a live terminal; answers the removed record.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: z.object({ id: IdSchema }).strict(),
  output: TaskSchema,
  http: { method: 'DELETE', path: '/api/tasks/:id', status: 204 },
  handler: (input, ctx) => {
    const { tasks } = ctx.services.domain;
    const record = tasks.get(input.id);
    tasks.remove(record.id);
    return record;
  },
});
