import type Router from '@koa/router';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { ApiContext } from './api-context.js';
import { readJsonBody } from './read-json-body.js';

const StopHookBody = z
  .object({
    /** From the terminal's SVC_TASK_ID / SVC_EXECUTION_ID. */
    taskId: z.number().int().positive(),
    executionId: z.number().int().positive().optional(),
    /** The CLI's session id from its hook input; the next resume continues that session. */
    sessionId: z.string().min(1).max(200).optional(),
    /** The hook input as the CLI gave it, kept for the harness fan-out. */
    event: z.unknown().optional(),
  })
  .strict();

/**
 * `POST /api/internal/hooks/stop`: a CLI turn ended. The notification is persisted now; the
 * harness fans it out (notify-parent for child tasks) later.
 */
export function hookRoutes(router: Router, api: ApiContext): void {
  router.post('/api/internal/hooks/stop', async (ctx) => {
    const body = await readJsonBody(ctx, StopHookBody, 'stop hook');
    api.domain.tasks.get(body.taskId);
    const execution = body.executionId !== undefined ? api.domain.executions.get(body.executionId) : api.domain.executions.latestForTask(body.taskId);
    if (execution && execution.taskId !== body.taskId) {
      throw new SvcError({ code: 'invalid_request', message: `execution ${execution.id} does not belong to task ${body.taskId}` });
    }
    const notification = api.domain.stopNotifications.add({
      taskId: body.taskId,
      executionId: execution?.id ?? null,
      sessionId: body.sessionId ?? null,
      payload: body.event ?? null,
    });
    if (execution && body.sessionId) api.terminals.recordSessionId(execution.id, body.sessionId);
    ctx.status = 202;
    ctx.body = { id: notification.id, taskId: body.taskId, executionId: execution?.id ?? null };
  });
}
