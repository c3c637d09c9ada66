import { SvcError } from '@svc-org/ai-sdk';
import type { OperationContext } from '@svc-org/host/operation-framework';
import { harnessStores } from '../messaging/harness-stores.js';
import { withTaskToken } from '../messaging/with-task-token.js';
import type { Approval } from './approval-record.js';
import type { GivenAnswer } from './approval-store.js';
import { approvalStores } from './approval-stores.js';
import { approvalCrashPoint, deliverApprovalOutcome } from './deliver-approval.js';

/** Outside text inside a message of svc: every line marked as quoted, control characters and task tokens defused. */
export function quoteOutsideText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u009b]/g, '?')
    .replace(/\[\[/g, '[ [')
    .split('\n')
    .map((line) => `│ ${line}`)
    .join('\n');
}

/** The relayed request's text: what asks, the call exactly (quoted), and how to answer by replying. */
export function relayText(approval: Approval): string {
  return [
    `Task ${approval.taskId} asks to run a call (${approval.cli}, approval #${approval.id}):`,
    quoteOutsideText(approval.shown),
    'Reply to this message with: allow | allow for task | deny <reason>',
  ].join('\n');
}

/** Relays a new request to the task's channel (the one push_to_human uses); nothing when it has none (the web, MCP and CLI list it). */
export function relayApproval(ctx: OperationContext, approval: Approval): void {
  const stores = harnessStores(ctx.services);
  const owner = stores.messages.ownerOf(approval.taskId);
  const channel = stores.channels.pickForPush({ workspaceId: owner.workspaceId, projectId: owner.projectId });
  if (!channel) return;
  const { messageId, outboxId } = stores.messages.enqueuePush({
    ...owner,
    kind: 'PUSH',
    body: withTaskToken(relayText(approval), approval.taskId),
    channelId: channel.id,
    gatewayId: channel.gatewayId,
    to: channel.home.to,
    threadId: channel.home.threadId ?? null,
    expectReply: false,
  });
  approvalStores(ctx.services).approvals.attachMessage(approval.id, messageId);
  stores.events.emit('enqueued', outboxId);
}

/** Tells the chat a relayed request was answered elsewhere (and by whom), so nobody answers it twice. */
function tellChat(ctx: OperationContext, approval: Approval): void {
  if (approval.messageId === null || approval.answeredVia === 'gateway') return;
  const stores = harnessStores(ctx.services);
  const relayed = stores.messages.get(approval.messageId);
  if (relayed.target.channel === null || relayed.target.to === null) return;
  const owner = stores.messages.ownerOf(approval.taskId);
  const channel = stores.channels.pickForPush({ workspaceId: owner.workspaceId, projectId: owner.projectId }, relayed.target.channel);
  if (!channel) return;
  const verdict = approval.status === 'ALLOWED' ? 'allowed' : 'denied';
  const { outboxId } = stores.messages.enqueuePush({
    ...owner,
    kind: 'PUSH',
    body: withTaskToken(`Approval #${approval.id} was ${verdict} by ${approval.answeredBy} via ${approval.answeredVia}; no answer is needed here.`, approval.taskId),
    channelId: channel.id,
    gatewayId: channel.gatewayId,
    to: relayed.target.to,
    threadId: relayed.target.threadId,
    expectReply: false,
  });
  stores.events.emit('enqueued', outboxId);
}

/**
 * Applies an answer: the first one wins (the store's conditional UPDATE); a later one fails with
 * `approval_answered`, naming who answered first. A waiting hook is woken; a parked request's
 * outcome is typed into its terminal.
 */
export async function applyApprovalAnswer(ctx: OperationContext, id: number, given: GivenAnswer): Promise<Approval> {
  const { approvals, events } = approvalStores(ctx.services);
  const answered = approvals.answer(id, given);
  if (!answered) {
    const current = approvals.get(id);
    throw new SvcError({
      code: 'approval_answered',
      message: `approval #${id} was already answered (${current.status.toLowerCase()}) by ${current.answeredBy ?? 'someone'} via ${current.answeredVia ?? 'svc'}`,
      details: { id, status: current.status, answeredBy: current.answeredBy, answeredVia: current.answeredVia, answeredAt: current.answeredAt },
    });
  }
  events.emit('answered', id);
  try {
    tellChat(ctx, answered);
  } catch (error) {
    ctx.services.logger.warn('the chat could not be told an approval was answered', { approvalId: id, code: SvcError.isInstance(error) ? error.code : 'internal' });
  }
  if (answered.delivery === 'delivering') {
    approvalCrashPoint('approval:answered');
    // The answer stands whatever happens to its typing (a task that cannot be resumed records `failed`).
    if (ctx.terminals) {
      await deliverApprovalOutcome(ctx.terminals, approvals, answered).catch((error: unknown) =>
        ctx.services.logger.warn('an approval outcome could not be typed into its task', { approvalId: id, taskId: answered.taskId, code: SvcError.isInstance(error) ? error.code : 'internal' }),
      );
    }
  }
  return approvals.get(id);
}
