import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { HarnessMessageSchema } from './message-record.js';
import { harnessStores } from './harness-stores.js';

export const getHarnessMessage = defineOperation({
  name: 'get_harness_message',
  group: 'harness',
  mcp: false,
  description: 'One message of the notification center with its delivery and reply, in full.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ id: z.coerce.number().int().positive() }).strict(),
  output: HarnessMessageSchema,
  http: { method: 'GET', path: '/api/harness/messages/:id' },
  handler(input, ctx) {
    return harnessStores(ctx.services).messages.get(input.id);
  },
});
