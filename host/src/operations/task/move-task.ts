import { z } from 'zod';
import { spelledEnum, TASK_STATUSES, taskSchema } from '../../features/domain/index.js';
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
  get output() {
    return taskSchema();
  },
  http: { method: 'POST', path: '/api/tasks/:id/move' },
  cli: { command: 'task move', positionals: ['id', 'status'], examples: ['svc task move 12 done'], text: (task, print) => print.line(`task ${task.id} moved to ${task.status}`) },
  handler: (input, ctx) => ctx.services.domain.tasks.update(input.id, { status: input.status }),
});
