import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ConfigurationNameSchema } from './configuration-name.js';
import { GATEWAY_KINDS, GatewaySchema } from './gateway-record.js';
import { gatewayStores } from './gateway-stores.js';

export const createGateway = defineOperation({
  name: 'create_gateway',
  group: 'gateway_settings',
  mcp: false,
  description: 'Add an external gateway: openclaw (its Gateway WebSocket URL and token) or hermes (the hermes command).',
  readOnly: false,
  runsIn: 'any',
  input: z
    .object({
      name: ConfigurationNameSchema,
      kind: z.enum(GATEWAY_KINDS),
      url: z.string().url().optional(),
      command: z.string().min(1).max(1000).optional(),
      token: z.string().min(1).max(4096).optional(),
      active: z.boolean().optional(),
    })
    .strict(),
  output: GatewaySchema,
  http: { method: 'POST', path: '/api/harness/gateways', status: 201 },
  handler: (input, ctx) => gatewayStores(ctx.services).gateways.add(input),
});
