import { z } from 'zod';
import { ExecutionSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { liveTerminals } from './live-terminals.js';
import { TerminalSize } from './terminal-size.js';

export const resumeTaskTerminal = defineOperation({
  name: 'resume_task_terminal',
  group: 'terminal',
  description: "Continue a task's CLI session (its stored session, on its previous connection unless another is named); fresh when it has none.",
  readOnly: false,
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({ taskId: IdSchema, connection: z.string().min(1).optional(), model: z.string().min(1).optional(), fresh: z.boolean().optional(), ...TerminalSize })
    .strict(),
  output: ExecutionSchema,
  http: { method: 'POST', path: '/api/internal/terminal/:taskId/resume', status: 201 },
  handler: (input, ctx) => {
    const { taskId, ...request } = input;
    return liveTerminals(ctx).resume(taskId, request);
  },
});
