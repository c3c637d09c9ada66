import { z } from 'zod';
import { EntityNameSchema, TaskSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const setTaskLabels = defineOperation({
  name: 'set_task_labels',
  group: 'task',
  description: "Replace a task's labels (names of its project's labels; [] clears them).",
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { id: 'task' } },
  input: z.object({ id: IdSchema, labels: z.array(EntityNameSchema).max(50) }).strict(),
  output: TaskSchema,
  http: { method: 'PUT', path: '/api/tasks/:id/labels' },
  cli: {
    command: 'task labels',
    positionals: ['id', '...labels'],
    usage: '<id> [<label>...]',
    examples: ['svc task labels 12 bug ui', 'svc task labels 12        (clears them)'],
    text: (task, print) => print.line(`task ${task.id} labels: ${task.labels.join(', ') || '(none)'}`),
  },
  handler: (input, ctx) => ctx.services.domain.tasks.update(input.id, { labels: input.labels }),
});
