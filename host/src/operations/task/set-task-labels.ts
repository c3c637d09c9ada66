import { z } from 'zod';
import { builtOnFirstUse, entityNameSchema, taskSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const setTaskLabelsInput = builtOnFirstUse(() => z.object({ id: IdSchema, labels: z.array(entityNameSchema()).max(50) }).strict());

export const setTaskLabels = defineOperation({
  name: 'set_task_labels',
  group: 'task',
  description: "Replace a task's labels (names of its project's labels; [] clears them).",
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { id: 'task' } },
  get input() {
    return setTaskLabelsInput();
  },
  get output() {
    return taskSchema();
  },
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
