import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { transaction } from '@svc-org/host/platform/db';
import { defineOperation } from '@svc-org/host/operation-framework';
import { withTaskToken } from '../messaging/index.js';
import { InboundIdField, MessageTextField } from '../operations/harness-schemas.js';
import { queuePlatformMessage } from './queue-platform-message.js';
import { assertWorkbenchCaller, GATEWAY_INBOUND_RECORD } from './assert-workbench-caller.js';
import { routingStores } from './routing-stores.js';

export const completeGatewayDiscussion = defineOperation({
  name: 'complete_gateway_discussion',
  group: 'gateway',
  // The Workbench (a task terminal) calls it; over MCP only its own terminal may, never the gateway's agent.
  mcp: { alsoIn: ['task'], notIn: ['gateway'] },
  description:
    'Workbench: answer a GATEWAY_DISCUSSION_REQUEST. The reply is queued in the outbox for the same chat and thread and sent reliably; calling it again ' +
    'for the same inbound returns the first reply.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { inboundId: GATEWAY_INBOUND_RECORD } },
  input: z.object({ inboundId: InboundIdField, text: MessageTextField }).strict(),
  output: z.object({ inboundId: z.number(), messageId: z.number(), replied: z.enum(['queued', 'already_replied']) }),
  http: { method: 'PUT', path: '/api/internal/harness/gateway' },
  handler(input, ctx) {
    const stores = routingStores(ctx.services);
    const result = transaction(ctx.services.db, () => {
      const inbound = stores.inbound.get(input.inboundId);
      if (inbound.replyMessageId !== null) return { messageId: inbound.replyMessageId, replied: 'already_replied' as const };
      if (inbound.request !== 'discussion' || inbound.state !== 'PROCESSED' || inbound.channelId === null || inbound.projectId === null) {
        throw new SvcError({
          code: 'not_a_discussion',
          message: `inbound ${inbound.id} is not a routed discussion request`,
          details: { inboundId: inbound.id, request: inbound.request, state: inbound.state },
        });
      }
      assertWorkbenchCaller(ctx, stores, { projectId: inbound.projectId }, 'complete_gateway_discussion');
      const channel = stores.channels.get(inbound.channelId);
      const project = ctx.services.domain.projects.get(inbound.projectId);
      // The Workbench's token: a reply to this answer is bound back to the same project conversation.
      const workbenchTaskId = stores.workbench.workbenchOf(project.id) ?? null;
      const { messageId } = queuePlatformMessage(ctx.services.db, {
        kind: 'PUSH',
        taskId: workbenchTaskId,
        projectId: project.id,
        workspaceId: project.workspaceId,
        body: workbenchTaskId !== null ? withTaskToken(input.text, workbenchTaskId) : input.text,
        channelId: channel.id,
        gatewayId: channel.gatewayId,
        to: inbound.chatId,
        threadId: inbound.threadId,
        replyToId: inbound.platformMessageId,
      });
      ctx.services.db.prepare('UPDATE harness_gateway_inbound SET reply_message_id = ?, updated_at = ? WHERE id = ?').run(messageId, new Date().toISOString(), inbound.id);
      return { messageId, replied: 'queued' as const };
    });
    if (result.replied === 'queued') stores.events.emit('enqueued');
    return { inboundId: input.inboundId, ...result };
  },
});
