import { z } from 'zod';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { liveTerminals } from './live-terminals.js';

export const getTaskTerminalOutput = defineOperation({
  name: 'get_task_terminal_output',
  group: 'terminal',
  description: "Read a task terminal's output from a cursor (omit it for the oldest retained byte); pass the answer's cursor next time.",
  readOnly: true,
  runsIn: 'service',
  readScope: { before: (input, scope) => scope.task(input.taskId) },
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      cursor: z.number().int().min(0).optional(),
      maxBytes: z.number().int().min(1).max(1024 * 1024).default(64 * 1024),
    })
    .strict(),
  output: z.object({
    taskId: z.number().int(),
    executionId: z.number().int(),
    state: z.string(),
    data: z.string(),
    from: z.number().int(),
    cursor: z.number().int(),
    start: z.number().int(),
    end: z.number().int(),
    behind: z.boolean(),
    missedBytes: z.number().int(),
    more: z.boolean(),
  }),
  http: { method: 'GET', path: '/api/internal/terminal/:taskId/buffer' },
  handler: (input, ctx) => {
    const read = liveTerminals(ctx).read(input.taskId, input.cursor, input.maxBytes);
    return {
      taskId: input.taskId,
      executionId: read.executionId,
      state: read.state,
      data: read.data.toString('utf8'),
      from: read.from,
      cursor: read.cursor,
      start: read.start,
      end: read.end,
      behind: read.behind,
      missedBytes: read.missedBytes,
      more: read.cursor < read.end,
    };
  },
});
