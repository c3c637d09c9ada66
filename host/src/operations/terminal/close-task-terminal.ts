import { z } from 'zod';
import { ExecutionSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { stopTask } from '../../features/lifecycle/index.js';
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
  handler: (input, ctx) => stopTask({ terminals: liveTerminals(ctx) }, input.taskId),
});
