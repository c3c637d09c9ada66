import { EXECUTION_STATUSES, executionListFilterSchema, ExecutionSchema } from '../../features/domain/index.js';
import { executionWords } from '../../features/lifecycle/index.js';
import { defineOperation, listOf, scopedItems } from '../../operation-framework/index.js';

export const listExecutions = defineOperation({
  name: 'list_executions',
  group: 'execution',
  description: 'List terminal executions, newest first (of one task, or of one status).',
  readOnly: true,
  runsIn: 'any',
  readScope: {
    before: (input, scope) => scope.task(input.taskId),
    after: (output, scope) => scopedItems(output, (item) => scope.taskVisible(item.taskId as number)),
  },
  reach: { names: { taskId: 'task' } },
  get input() {
    return executionListFilterSchema();
  },
  output: listOf(ExecutionSchema),
  http: { method: 'GET', path: '/api/executions' },
  cli: {
    command: 'execution list',
    flags: {
      taskId: { flag: 'task', value: '<task id>', description: 'only the executions of this task' },
      status: { value: '<status>', description: `only this status (${EXECUTION_STATUSES.join(', ')}; any case, - or _)` },
      limit: { value: '<n>', description: 'at most this many (default 100)' },
    },
    examples: ['svc execution list --task 12'],
    json: (output) => output.items,
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no executions');
      else
        print.table(
          ['ID', 'TASK', 'STATUS', 'MODE', 'CONNECTION', 'STARTED', 'ENDED'],
          items.map((e) => [String(e.id), String(e.taskId), executionWords(e), e.mode, e.connectionName, e.startedAt, e.endedAt ?? '']),
        );
    },
  },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    if (input.taskId !== undefined) domain.tasks.get(input.taskId);
    return { items: domain.executions.list(input) };
  },
});
