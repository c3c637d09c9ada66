import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ChannelSchema } from './channel-record.js';
import { gatewayStores } from './gateway-stores.js';

export const listChannels = defineOperation({
  name: 'list_channels',
  group: 'gateway_settings',
  mcp: false,
  description: 'The configured channels: gateway, platform, owner/home target, owner identity, trusted groups, targets, scope, active.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: z.object({ items: z.array(ChannelSchema) }),
  http: { method: 'GET', path: '/api/harness/channels' },
  handler: (_input, ctx) => ({ items: gatewayStores(ctx.services).channels.list() }),
});
