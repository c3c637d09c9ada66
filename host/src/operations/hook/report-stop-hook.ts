import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { ExecutionRecord } from '../../features/domain/index.js';
import { messageSubmitted, turnEnded } from '../../features/lifecycle/index.js';
import { defineOperation, IdSchema, type OperationContext } from '../../operation-framework/index.js';

const TurnHookFields = {
  /** From the terminal's SVC_TASK_ID / SVC_EXECUTION_ID. */
  taskId: IdSchema,
  executionId: IdSchema.optional(),
  /** The CLI's session id from its hook input (Codex's notify: `thread-id`); the next resume continues that session. */
  sessionId: z.string().min(1).max(200).optional(),
  /** The CLI's turn id (Codex `turn_id` / notify `turn-id`), which deduplicates a turn reported twice. */
  turnId: z.string().min(1).max(200).optional(),
  /** The hook input as the CLI gave it, kept for the harness fan-out. */
  event: z.unknown().optional(),
};

/**
 * A CLI turn in a task terminal ended. The notification is stored now, once per task and turn
 * (Codex reports a turn by its Stop hook and by `notify`); the harness fans it out (notify-parent
 * for child tasks) later. Only the Stop hook moves the terminal's turn state: Codex's notify also
 * fires for side threads (its title generator) whose session is not this one.
 */
export const reportStopHook = defineOperation({
  name: 'report_stop_hook',
  group: 'hooks',
  mcp: false,
  description: "Record that a task terminal's CLI finished a turn (internal: called by the CLI's Stop hook or Codex's notify).",
  readOnly: false,
  runsIn: 'service',
  input: z
    .object({
      ...TurnHookFields,
      /** `hook`: the CLI's Stop hook; `codex-notify`: Codex's agent-turn-complete callback. */
      source: z.enum(['hook', 'codex-notify']).default('hook'),
    })
    .strict(),
  output: z.object({
    id: z.number().int().nullable(),
    taskId: z.number().int(),
    executionId: z.number().int().nullable(),
    duplicate: z.boolean().optional(),
    ignored: z.string().optional(),
  }),
  http: { method: 'POST', path: '/api/internal/hooks/stop', status: 202 },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    const execution = executionOf(ctx, input.taskId, input.executionId);
    if (input.source === 'codex-notify' && execution?.sessionId && input.sessionId && input.sessionId !== execution.sessionId) {
      return { id: null, taskId: input.taskId, executionId: execution.id, ignored: 'other_thread' };
    }
    const { notification, duplicate } = domain.stopNotifications.add({
      taskId: input.taskId,
      executionId: execution?.id ?? null,
      sessionId: input.sessionId ?? null,
      turnId: input.turnId ?? null,
      source: input.source,
      payload: input.event ?? null,
    });
    if (input.source === 'hook') {
      if (execution && input.sessionId) {
        if (ctx.terminals) ctx.terminals.recordSessionId(execution.id, input.sessionId);
        else domain.executions.setSessionId(execution.id, input.sessionId);
      }
      ctx.terminals?.reportTurnEnded(input.taskId, execution?.id);
      // The CLI waits at its own prompt now: the task's attention is `needs_you` until a message goes in.
      if (execution) turnEnded(domain, execution.id);
    }
    return { id: notification.id, taskId: input.taskId, executionId: execution?.id ?? null, duplicate };
  },
});

/** A message was submitted in a task terminal: confirms what `submit_task_terminal_message` typed and marks the turn busy. */
export const reportPromptHook = defineOperation({
  name: 'report_prompt_hook',
  group: 'hooks',
  mcp: false,
  description: "Record that a task terminal's CLI took a message (internal: called by the CLI's prompt-submit hook).",
  readOnly: false,
  runsIn: 'service',
  input: z.object({ ...TurnHookFields, source: z.literal('hook').optional() }).strict(),
  output: z.object({ taskId: z.number().int(), executionId: z.number().int().nullable() }),
  http: { method: 'POST', path: '/api/internal/hooks/prompt', status: 202 },
  handler: (input, ctx) => {
    const execution = executionOf(ctx, input.taskId, input.executionId);
    // Known from the first message on, so a Codex notify from another thread is recognised as such.
    if (execution && input.sessionId) ctx.terminals?.recordSessionId(execution.id, input.sessionId);
    ctx.terminals?.reportPromptSubmitted(input.taskId, execution?.id, input.turnId);
    if (execution) messageSubmitted(ctx.services.domain, execution.id);
    return { taskId: input.taskId, executionId: execution?.id ?? null };
  },
});

function executionOf(ctx: OperationContext, taskId: number, executionId: number | undefined): ExecutionRecord | undefined {
  const { domain } = ctx.services;
  domain.tasks.get(taskId);
  const execution = executionId !== undefined ? domain.executions.get(executionId) : domain.executions.latestForTask(taskId);
  if (execution && execution.taskId !== taskId) {
    throw new SvcError({ code: 'invalid_request', message: `execution ${execution.id} does not belong to task ${taskId}` });
  }
  return execution;
}
