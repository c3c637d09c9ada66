import { z } from 'zod';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { liveTerminals } from './live-terminals.js';

/**
 * A message typed into a task terminal as its CLI's next one: waits for the CLI's prompt, pastes,
 * then presses Enter, and refuses a busy turn (`terminal_busy`) instead of interrupting it.
 */
export const submitTaskTerminalMessage = defineOperation({
  name: 'submit_task_terminal_message',
  group: 'terminal',
  description:
    "Send a message to a task terminal's CLI as its next message (waits for its prompt; refused with terminal_busy while a turn runs). Use this rather than send_task_terminal_input to answer a CLI.",
  readOnly: false,
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: IdSchema,
      /** The message, as the CLI's next one (lines joined with \n). */
      text: z.string().min(1).max(64 * 1024),
      readyTimeoutMs: z.number().int().min(0).max(300_000).optional(),
      confirmTimeoutMs: z.number().int().min(0).max(300_000).optional(),
    })
    .strict(),
  output: z.object({ taskId: z.number().int(), executionId: z.number().int(), confirmed: z.boolean(), turnId: z.string().optional() }),
  http: { method: 'POST', path: '/api/internal/terminal/:taskId/submit' },
  async handler(input, ctx) {
    const { taskId, text, ...options } = input;
    return { taskId, ...(await liveTerminals(ctx).submitMessage(taskId, text, options)) };
  },
});
