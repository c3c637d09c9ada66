import type Router from '@koa/router';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { ExecutionRecord } from '../domain/index.js';
import type { ApiContext } from './api-context.js';
import { readJsonBody } from './read-json-body.js';

const TurnHookFields = {
  /** From the terminal's SVC_TASK_ID / SVC_EXECUTION_ID. */
  taskId: z.number().int().positive(),
  executionId: z.number().int().positive().optional(),
  /** The CLI's session id from its hook input (Codex's notify: `thread-id`); the next resume continues that session. */
  sessionId: z.string().min(1).max(200).optional(),
  /** The CLI's turn id (Codex `turn_id` / notify `turn-id`), which deduplicates a turn reported twice. */
  turnId: z.string().min(1).max(200).optional(),
  /** The hook input as the CLI gave it, kept for the harness fan-out. */
  event: z.unknown().optional(),
};

const StopHookBody = z
  .object({
    ...TurnHookFields,
    /** `hook`: the CLI's Stop hook; `codex-notify`: Codex's agent-turn-complete callback. */
    source: z.enum(['hook', 'codex-notify']).default('hook'),
  })
  .strict();

const PromptHookBody = z.object({ ...TurnHookFields, source: z.literal('hook').optional() }).strict();

/**
 * `POST /api/internal/hooks/stop`: a CLI turn ended. The notification is persisted now, once per
 * task and turn (Codex reports a turn by its Stop hook and by `notify`); the harness fans it out
 * (notify-parent for child tasks) later. `POST /api/internal/hooks/prompt`: a message was
 * submitted, which confirms what `submitMessage` typed and marks the turn busy.
 */
export function hookRoutes(router: Router, api: ApiContext): void {
  router.post('/api/internal/hooks/stop', async (ctx) => {
    const body = await readJsonBody(ctx, StopHookBody, 'stop hook');
    const execution = executionOf(api, body.taskId, body.executionId);
    // Codex's notify fires for its side threads too (the title generator): once the session is known, only its turns count.
    if (body.source === 'codex-notify' && execution?.sessionId && body.sessionId && body.sessionId !== execution.sessionId) {
      ctx.status = 202;
      ctx.body = { id: null, taskId: body.taskId, executionId: execution.id, ignored: 'other_thread' };
      return;
    }
    const { notification, duplicate } = api.domain.stopNotifications.add({
      taskId: body.taskId,
      executionId: execution?.id ?? null,
      sessionId: body.sessionId ?? null,
      turnId: body.turnId ?? null,
      source: body.source,
      payload: body.event ?? null,
    });
    // Only the Stop hook moves the turn: Codex's notify also fires for side threads whose session is not yet known.
    if (body.source === 'hook') {
      if (execution && body.sessionId) api.terminals.recordSessionId(execution.id, body.sessionId);
      api.terminals.reportTurnEnded(body.taskId, execution?.id);
    }
    ctx.status = duplicate ? 200 : 202;
    ctx.body = { id: notification.id, taskId: body.taskId, executionId: execution?.id ?? null, duplicate };
  });

  router.post('/api/internal/hooks/prompt', async (ctx) => {
    const body = await readJsonBody(ctx, PromptHookBody, 'prompt hook');
    const execution = executionOf(api, body.taskId, body.executionId);
    // Known from the first message on, so a Codex notify from another thread is recognised as such.
    if (execution && body.sessionId) api.terminals.recordSessionId(execution.id, body.sessionId);
    api.terminals.reportPromptSubmitted(body.taskId, execution?.id, body.turnId);
    ctx.status = 202;
    ctx.body = { taskId: body.taskId, executionId: execution?.id ?? null };
  });
}

function executionOf(api: ApiContext, taskId: number, executionId: number | undefined): ExecutionRecord | undefined {
  api.domain.tasks.get(taskId);
  const execution = executionId !== undefined ? api.domain.executions.get(executionId) : api.domain.executions.latestForTask(taskId);
  if (execution && execution.taskId !== taskId) {
    throw new SvcError({ code: 'invalid_request', message: `execution ${execution.id} does not belong to task ${taskId}` });
  }
  return execution;
}
