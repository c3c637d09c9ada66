import { z } from 'zod';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { liveTerminals } from './live-terminals.js';

export const sendTaskTerminalInput = defineOperation({
  name: 'send_task_terminal_input',
  group: 'terminal',
  description: 'Type into a running task terminal (e.g. "yes" with submit, or "\\u0003" for Ctrl-C).',
  readOnly: false,
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      /** Bytes for the terminal as typed. */
      data: z.string().max(64 * 1024),
      /** Press Enter after `data`. */
      submit: z.boolean().optional(),
    })
    .strict(),
  output: z.object({ taskId: z.number().int(), bytes: z.number().int() }),
  http: { method: 'POST', path: '/api/internal/terminal/:taskId/input' },
  handler: (input, ctx) => {
    const data = input.submit ? `${input.data}\r` : input.data;
    liveTerminals(ctx).write(input.taskId, data);
    return { taskId: input.taskId, bytes: Buffer.byteLength(data) };
  },
});
