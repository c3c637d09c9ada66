import { z } from 'zod';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { liveTerminals } from './live-terminals.js';

export const resizeTaskTerminal = defineOperation({
  name: 'resize_task_terminal',
  group: 'terminal',
  description: "Set a running task terminal's window size (an attached viewer follows its own window).",
  readOnly: false,
  idempotent: true,
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema, cols: z.number().int().min(2).max(1000), rows: z.number().int().min(2).max(1000) }).strict(),
  output: z.object({ taskId: z.number().int(), cols: z.number().int(), rows: z.number().int() }),
  http: { method: 'POST', path: '/api/internal/terminal/:taskId/resize' },
  handler: (input, ctx) => {
    liveTerminals(ctx).resize(input.taskId, input.cols, input.rows);
    return input;
  },
});
