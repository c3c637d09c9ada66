import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { HarnessMessageSchema } from './message-record.js';
import { harnessStores } from './harness-stores.js';

export const resendHarnessMessage = defineOperation({
  name: 'resend_harness_message',
  group: 'harness',
  mcp: false,
  description:
    'A person decides to send a SENT_UNVERIFIED or FAILED message again (it may arrive twice: check the chat first). The same idempotency key travels again.',
  readOnly: false,
  runsIn: 'any',
  input: z.object({ id: z.coerce.number().int().positive() }).strict(),
  output: HarnessMessageSchema,
  http: { method: 'POST', path: '/api/harness/messages/:id/resend' },
  handler(input, ctx) {
    const stores = harnessStores(ctx.services);
    const message = stores.messages.resend(input.id);
    stores.events.emit('enqueued', message.outbound?.id);
    return message;
  },
});
