import { builtOnFirstUse, TASK_STATUSES, taskSchema, taskUpdateSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const updateTaskInput = builtOnFirstUse(() => taskUpdateSchema().extend({ id: IdSchema }));

export const updateTask = defineOperation({
  name: 'update_task',
  group: 'task',
  description: 'Change a task: title, description, status, parent, labels or unattended mode.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { id: 'task', parentTaskId: 'task' } },
  get input() {
    return updateTaskInput();
  },
  get output() {
    return taskSchema();
  },
  http: { method: 'PATCH', path: '/api/tasks/:id' },
  cli: {
    command: 'task update',
    positionals: ['id'],
    flags: {
      title: { value: '<title>', description: 'new title' },
      description: { short: 'd', value: '<text>', description: 'new description' },
      status: { value: '<status>', description: `move to this column, one of ${TASK_STATUSES.join(', ')} (any case, - or _)` },
      parentTaskId: { flag: 'parent', value: '<task id>', description: 'new parent task', clear: { flag: 'no-parent', description: 'detach it from its parent', value: null } },
      labels: { flag: 'label', value: '<name>', description: 'replace its labels (repeat for more)', clear: { flag: 'no-labels', description: 'remove every label', value: [] } },
      unattended: {
        description: "nobody watches its terminal: its questions and its CLI's permission requests go to a person through svc",
        clear: { flag: 'attended', description: 'ask for approvals again', value: false },
      },
    },
    examples: ['svc task update 12 --status in-review --label bug --label ui'],
    text: (task, print) => print.line(`task ${task.id} updated (${task.status})`),
  },
  handler: (input, ctx) => {
    const { id, ...patch } = input;
    return ctx.services.domain.tasks.update(id, patch);
  },
});
