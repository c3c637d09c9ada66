import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '../define-operation.js';
import { IdSchema } from '../id-schema.js';

/**
 * A CLI turn in a task terminal ended (its Stop hook fired). The notification is stored now;
 * the harness fans it out (notify-parent for child tasks) later.
 */
export const reportStopHook = defineOperation({
  name: 'report_stop_hook',
  group: 'hooks',
  description: "Record that a task terminal's CLI finished a turn (internal: called by the CLI's Stop hook).",
  readOnly: false,
  runsIn: 'any',
  input: z
    .object({
      /** From the terminal's SVC_TASK_ID / SVC_EXECUTION_ID. */
      taskId: IdSchema,
      executionId: IdSchema.optional(),
      /** The CLI's session id from its hook input; the next resume continues that session. */
      sessionId: z.string().min(1).max(200).optional(),
      /** The hook input as the CLI gave it, kept for the harness fan-out. */
      event: z.unknown().optional(),
    })
    .strict(),
  output: z.object({ id: z.number().int(), taskId: z.number().int(), executionId: z.number().int().nullable() }),
  http: { method: 'POST', path: '/api/internal/hooks/stop', status: 202 },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    domain.tasks.get(input.taskId);
    const execution = input.executionId !== undefined ? domain.executions.get(input.executionId) : domain.executions.latestForTask(input.taskId);
    if (execution && execution.taskId !== input.taskId) {
      throw new SvcError({ code: 'invalid_request', message: `execution ${execution.id} does not belong to task ${input.taskId}` });
    }
    const notification = domain.stopNotifications.add({
      taskId: input.taskId,
      executionId: execution?.id ?? null,
      sessionId: input.sessionId ?? null,
      payload: input.event ?? null,
    });
    if (execution && input.sessionId) domain.executions.setSessionId(execution.id, input.sessionId);
    return { id: notification.id, taskId: input.taskId, executionId: execution?.id ?? null };
  },
});
