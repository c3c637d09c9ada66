import { z } from 'zod';
import { ExecutionSchema } from '../../features/domain/index.js';
import { executionWords } from '../../features/lifecycle/index.js';
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
  cli: {
    command: 'execution show',
    positionals: ['id'],
    examples: ['svc execution show 7'],
    text: (e, print) => {
      print.line(`id           ${e.id}\ntask         ${e.taskId}\nstatus       ${executionWords(e)}${e.endReason ? ` (${e.endReason})` : ''}`);
      print.line(`connection   ${e.connectionName} (${e.providerId})\nmode         ${e.mode}\nsession      ${e.sessionId ?? '(none)'}`);
      print.line(`started      ${e.startedAt}\nended        ${e.endedAt ?? ''}\nexit         ${e.exitSignal ? `signal ${e.exitSignal}` : (e.exitCode ?? '')}`);
      if (e.error) print.fields([['error', `${e.error.code}: ${e.error.message}`, 'text']]);
    },
  },
  handler: (input, ctx) => ctx.services.domain.executions.get(input.id),
});
