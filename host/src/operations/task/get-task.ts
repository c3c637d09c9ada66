import { z } from 'zod';
import { TaskSchema } from '../../features/domain/index.js';
import { defineOperation } from '../define-operation.js';
import { IdSchema } from '../id-schema.js';

export const getTask = defineOperation({
  name: 'get_task',
  group: 'task',
  description: 'Show one task: title, status, parent, labels, description.',
  readOnly: true,
  runsIn: 'any',
  reach: { names: { id: 'task' } },
  input: z.object({ id: IdSchema }).strict(),
  output: TaskSchema,
  http: { method: 'GET', path: '/api/tasks/:id' },
  handler: (input, ctx) => ctx.services.domain.tasks.get(input.id),
});
