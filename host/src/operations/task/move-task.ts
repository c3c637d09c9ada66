import { z } from 'zod';
import { spelledEnum, TASK_STATUSES, TaskSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const moveTask = defineOperation({
  name: 'move_task',
  group: 'task',
  description: 'Move a task to another status column, by the board rules (a live terminal blocks TODO, DONE, CANCELLED).',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { id: 'task' } },
  input: z.object({ id: IdSchema, status: spelledEnum(TASK_STATUSES) }).strict(),
  output: TaskSchema,
  http: { method: 'POST', path: '/api/tasks/:id/move' },
  handler: (input, ctx) => ctx.services.domain.tasks.update(input.id, { status: input.status }),
});
