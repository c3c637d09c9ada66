import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { GatewaySchema } from './gateway-record.js';
import { gatewayStores } from './gateway-stores.js';

export const listGateways = defineOperation({
  name: 'list_gateways',
  group: 'gateway_settings',
  mcp: false,
  description: 'The configured external gateways (tokens are never shown: only whether one is set).',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: z.object({ items: z.array(GatewaySchema) }),
  http: { method: 'GET', path: '/api/harness/gateways' },
  handler: (_input, ctx) => ({ items: gatewayStores(ctx.services).gateways.list() }),
});
