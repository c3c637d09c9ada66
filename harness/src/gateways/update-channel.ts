import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ChannelSchema } from './channel-record.js';
import { gatewayStores } from './gateway-stores.js';

export const updateChannel = defineOperation({
  name: 'update_channel',
  group: 'gateway_settings',
  mcp: false,
  description: 'Activate or deactivate a channel.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1).max(100), active: z.boolean() }).strict(),
  output: ChannelSchema,
  http: { method: 'PATCH', path: '/api/harness/channels/:name' },
  handler: (input, ctx) => gatewayStores(ctx.services).channels.setActive(input.name, input.active),
});
