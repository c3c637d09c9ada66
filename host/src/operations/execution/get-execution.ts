import { z } from 'zod';
import { ExecutionSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const getExecution = defineOperation({
  name: 'get_execution',
  group: 'execution',
  description: 'Show one execution: its connection, session, process and how it ended.',
  readOnly: true,
  runsIn: 'any',
  readScope: { after: (output, scope) => (scope.task(output.taskId), output) },
  reach: { names: { id: 'execution' } },
  input: z.object({ id: IdSchema }).strict(),
  output: ExecutionSchema,
  http: { method: 'GET', path: '/api/executions/:id' },
  handler: (input, ctx) => ctx.services.domain.executions.get(input.id),
});
