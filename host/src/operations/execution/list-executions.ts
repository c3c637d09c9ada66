import { ExecutionListFilterSchema, ExecutionSchema } from '../../features/domain/index.js';
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
  input: ExecutionListFilterSchema,
  output: listOf(ExecutionSchema),
  http: { method: 'GET', path: '/api/executions' },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    if (input.taskId !== undefined) domain.tasks.get(input.taskId);
    return { items: domain.executions.list(input) };
  },
});
