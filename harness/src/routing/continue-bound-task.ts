import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { MessageTextField, NoOpField, TaskIdField } from '../operations/harness-schemas.js';
import { answerOpenAsk, submitReply } from '../messaging/index.js';
import { transaction } from '@svc-org/host/platform/db';
import { InboundFields } from './inbound-fields.js';
import { boundTask } from './resolve-project.js';
import { routingStores } from './routing-stores.js';
import { requireOwner } from './sender-policy.js';

export const continueBoundTask = defineOperation({
  name: 'continue_bound_task',
  group: 'gateway',
  description:
    'OWNER only: an explicit request to continue the task a platform message is bound to. When the task has an OPEN ask, the text answers it ' +
    '(ask answered and execution RUNNING in one transaction, then typed); else it is typed into the task\'s live terminal, or the task is resumed ' +
    'first. Idempotent by platform message id: a repeated delivery answers in_progress or already_processed with noOp.',
  readOnly: false,
  idempotent: true,
  runsIn: 'service',
  reach: { taskCaller: 'refused' },
  input: z
    .object({ ...InboundFields, text: MessageTextField, replyToMessageId: z.string().min(1).max(256).optional(), taskId: TaskIdField.optional() })
    .strict(),
  output: z.object({
    status: z.enum(['answered_ask', 'injected', 'resumed', 'in_progress', 'already_processed']),
    inboundId: z.number(),
    taskId: z.number(),
    noOp: NoOpField,
  }),
  http: { method: 'PUT', path: '/api/internal/harness/gateway-task' },
  // long: not split yet: the harness's contract (its own step of the architecture work) reshapes this handler, which still runs SQL inline
  async handler(input, ctx) {
    const stores = routingStores(ctx.services);
    const policy = requireOwner(stores.channels, input, 'continue_bound_task');
    const taskId = input.taskId ?? boundTask(ctx, input);
    if (taskId === null) {
      throw new SvcError({ code: 'task_not_bound', message: 'this message is not bound to a task', details: { fix: 'reply to a message that carries [[svc:task=<id>]]' } });
    }
    const task = ctx.services.domain.tasks.get(taskId);
    const stored = stores.inbound.storeTaskContext({
      platform: input.platform,
      chatId: input.chatId,
      platformMessageId: input.platformMessageId,
      threadId: input.threadId ?? null,
      rootMessageId: input.rootMessageId ?? null,
      senderId: input.senderId,
      channelId: policy.channel.id,
      kind: 'task_context',
      request: 'continue',
      text: input.text,
      taskId,
      projectId: task.projectId,
    });
    // The read-only context row becomes this caller's continue in one conditional UPDATE.
    const claimed = stores.inbound.upgradeToContinue(stored.id);
    if (!claimed) {
      const current = stores.inbound.get(stored.id);
      return { status: current.state === 'PROCESSED' ? ('already_processed' as const) : ('in_progress' as const), inboundId: current.id, taskId, noOp: true };
    }
    try {
      const terminals = ctx.terminals;
      if (!terminals) throw new SvcError({ code: 'server_not_running', message: 'continue_bound_task needs the running service (svc serve)' });
      let status: 'answered_ask' | 'injected' | 'resumed' = 'injected';
      const entered = (executionId: number) => () => stores.inbound.markInjection(claimed.id, 'entered', executionId);
      const open = stores.messages.openAskOf(taskId);
      const parked = terminals.summary(taskId);
      if (open && parked && parked.state !== 'ENDED' && claimed.result === null) {
        // The continue answers the question the task waits on, rather than typing past it: the ask
        // is answered, the execution RUNNING and the injection mark set in one transaction.
        const live = ctx.services.domain.executions.liveForTask(taskId)!;
        transaction(ctx.services.db, () => {
          if (!stores.messages.answer(open.id, input.text, 'gateway')) throw new SvcError({ code: 'no_pending', message: `task ${taskId} has no open question`, details: { taskId } });
          if (parked.state === 'PAUSED') terminals.unpause(taskId);
          stores.inbound.markInjection(claimed.id, 'injecting', live.id);
        });
        crashPoint('gateway-continue:marked');
        try {
          await submitReply(terminals, taskId, input.text, { onEnter: entered(live.id) });
        } catch (error) {
          stores.messages.reopen(open.id);
          throw error;
        }
        stores.messages.recordResumeOutcome(open.id, 'already_running');
        status = 'answered_ask';
      } else {
        if (open) {
          // The parked terminal is gone: answered as reply_to_ask answers, which resumes the session with it.
          await answerOpenAsk(ctx, { taskId, reply: input.text, via: 'gateway' });
          stores.inbound.processed(claimed.id, { projectId: task.projectId, taskId, conversationId: null, eventId: null, routedBy: 'task_binding', result: 'answered_ask' });
          return { status: 'answered_ask' as const, inboundId: claimed.id, taskId };
        }
        if (!ctx.services.domain.executions.liveForTask(taskId)) {
          await terminals.resume(taskId);
          status = 'resumed';
        }
        // Injection is once per inbound within a session: `injecting` is committed before the write and
        // `entered` just before the Enter that submits it, so a retry after a crash (same row, lease
        // expired) into the same live execution (its terminal kept by the terminal holder) types it
        // only when that Enter never went out.
        const live = ctx.services.domain.executions.liveForTask(taskId)!;
        const mark = `injecting:${live.id}`;
        if (claimed.result !== `entered:${live.id}`) {
          if (claimed.result !== mark) stores.inbound.markInjection(claimed.id, 'injecting', live.id);
          await submitReply(terminals, taskId, input.text, { ...(status === 'resumed' ? { waitForQuietMs: 1500 } : {}), onEnter: entered(live.id) });
        }
      }
      stores.inbound.processed(claimed.id, { projectId: task.projectId, taskId, conversationId: null, eventId: null, routedBy: 'task_binding', result: status });
      return { status, inboundId: claimed.id, taskId };
    } catch (error) {
      stores.inbound.failed(claimed.id, error);
      ctx.services.logger.warn('gateway continue not applied', { inboundId: claimed.id, taskId, code: SvcError.isInstance(error) ? error.code : 'internal' });
      throw error;
    }
  },
});

/**
 * Crash-safety tests only: SVC_TEST_CRASH_AT=gateway-continue:marked makes `svc serve` SIGKILL itself
 * once the ask is answered and the injection marked, before anything is typed (as `kill -9` would).
 */
function crashPoint(point: 'gateway-continue:marked'): void {
  if (process.env.SVC_TEST_CRASH_AT !== point) return;
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
}
