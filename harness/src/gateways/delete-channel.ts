import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ChannelSchema } from './channel-record.js';
import { gatewayStores } from './gateway-stores.js';

export const deleteChannel = defineOperation({
  name: 'delete_channel',
  group: 'gateway_settings',
  mcp: false,
  description: 'Remove a channel (its messages stay in the notification center).',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1).max(100) }).strict(),
  output: ChannelSchema,
  http: { method: 'DELETE', path: '/api/harness/channels/:name', status: 204 },
  cli: {
    command: 'channel remove',
    positionals: ['name'],
    expects: 'exactly one channel name',
    plugins: true,
    examples: ['svc channel remove team'],
    text: (c, print) => print.line(`channel ${c.name} removed`),
  },
  handler: (input, ctx) => gatewayStores(ctx.services).channels.remove(input.name),
});
