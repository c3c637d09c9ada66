import { z } from 'zod';
import { ExecutionSchema } from '../../features/domain/index.js';
import { executionWords } from '../../features/lifecycle/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { liveTerminals } from './live-terminals.js';
import { TerminalSummarySchema } from './terminal-schemas.js';

export const getTaskTerminalStatus = defineOperation({
  name: 'get_task_terminal_status',
  group: 'terminal',
  description: "A task's terminal (state, attached viewers, keepalive) and its latest execution.",
  readOnly: true,
  runsIn: 'service',
  readScope: { before: (input, scope) => scope.task(input.taskId) },
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema }).strict(),
  output: z.object({ taskId: z.number().int(), terminal: TerminalSummarySchema.nullable(), execution: ExecutionSchema.nullable() }),
  http: { method: 'GET', path: '/api/internal/terminal/:taskId' },
  cli: {
    command: 'task status',
    positionals: ['taskId'],
    usage: '<id>',
    examples: ['svc task status 12'],
    text: ({ terminal: t, execution }, print) => {
      print.line(`terminal     ${t ? `${t.state}, pid ${t.pid}, ${t.attached} attached${t.keepaliveRemainingMs !== null ? `, keepalive ${Math.ceil(t.keepaliveRemainingMs / 1000)} s` : ''}` : '(none)'}`);
      print.line(`execution    ${execution ? `${execution.id} ${executionWords(execution)}` : '(none)'}`);
    },
  },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    domain.tasks.get(input.taskId);
    return { taskId: input.taskId, terminal: liveTerminals(ctx).summary(input.taskId) ?? null, execution: domain.executions.latestForTask(input.taskId) ?? null };
  },
});
