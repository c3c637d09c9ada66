import { z } from 'zod';
import { ExecutionSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { executionWords, stopTask } from '../../features/lifecycle/index.js';
import { liveTerminals } from './live-terminals.js';

export const closeTaskTerminal = defineOperation({
  name: 'close_task_terminal',
  group: 'terminal',
  description: "The Stop button: Ctrl-C, then SIGTERM, then SIGKILL to the CLI's process tree; the execution ends `stopped` (not a failure; resume continues it) and is answered.",
  readOnly: false,
  destructive: true,
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema }).strict(),
  output: ExecutionSchema,
  http: { method: 'POST', path: '/api/internal/terminal/:taskId/stop' },
  cli: {
    command: 'task stop',
    positionals: ['taskId'],
    usage: '<id>',
    examples: ['svc task stop 12'],
    text: (execution, print) => print.line(`task ${execution.taskId} stopped: execution ${execution.id} ${executionWords(execution)}`),
  },
  handler: (input, ctx) => stopTask({ terminals: liveTerminals(ctx) }, input.taskId),
});
