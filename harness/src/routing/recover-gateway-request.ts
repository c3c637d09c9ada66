import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ChatIdField, InboundIdField, PlatformField } from '../operations/harness-schemas.js';
import { SenderIdField } from './inbound-fields.js';
import { routingStores } from './routing-stores.js';
import { requireOwner } from './sender-policy.js';

export const recoverGatewayRequest = defineOperation({
  name: 'recover_gateway_request',
  group: 'operations',
  description:
    'OWNER: recover one named inbound request. A failed or stuck routing is released so the next delivery of that message routes it again; a failed ' +
    'reply delivery is queued again. A SENT_UNVERIFIED reply is never resent (check the chat, then svc harness resend).',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z.object({ platform: PlatformField, chatId: ChatIdField, senderId: SenderIdField, inboundId: InboundIdField }).strict(),
  output: z.object({ inboundId: z.number(), routing: z.string(), delivery: z.string().nullable() }),
  http: { method: 'POST', path: '/api/internal/harness/gateway/recover' },
  handler(input, ctx) {
    const stores = routingStores(ctx.services);
    requireOwner(stores.channels, input, 'recover_gateway_request');
    const inbound = stores.inbound.get(input.inboundId);
    const db = ctx.services.db;
    const at = new Date();
    // A stuck ROUTING row gets an expired lease: the next delivery of the message retakes the same row.
    db.prepare("UPDATE harness_gateway_inbound SET lease_until = 0, updated_at = ? WHERE id = ? AND state = 'ROUTING'").run(at.toISOString(), inbound.id);
    let delivery: string | null = null;
    const messageId = inbound.replyMessageId;
    const finalResult = inbound.taskId !== null ? (db.prepare("SELECT id FROM harness_messages WHERE task_id = ? AND kind = 'FINAL_RESULT' ORDER BY id DESC LIMIT 1").get(inbound.taskId) as { id: number } | undefined) : undefined;
    for (const id of [messageId, finalResult?.id]) {
      if (id == null) continue;
      const out = db.prepare('SELECT state FROM harness_outbound WHERE message_id = ?').get(id) as { state: string } | undefined;
      if (!out) continue;
      if (out.state === 'SENT_UNVERIFIED') {
        throw new SvcError({
          code: 'not_resendable',
          message: `message ${id} may have reached the chat already (SENT_UNVERIFIED); it is not resent`,
          details: { messageId: id, fix: 'check the chat; if it is missing, svc harness resend <id>' },
        });
      }
      if (out.state === 'FAILED') {
        db.prepare("UPDATE harness_outbound SET state = 'PENDING', next_attempt_at = ?, updated_at = ? WHERE message_id = ? AND state = 'FAILED'").run(at.getTime(), at.toISOString(), id);
        db.prepare("UPDATE harness_messages SET status = 'PENDING_DELIVERY', updated_at = ? WHERE id = ? AND status = 'FAILED'").run(at.toISOString(), id);
        stores.events.emit('enqueued');
        delivery = 'requeued';
      } else delivery = out.state;
    }
    return { inboundId: inbound.id, routing: stores.inbound.get(inbound.id).state, delivery };
  },
});
