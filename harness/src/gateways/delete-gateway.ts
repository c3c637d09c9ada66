import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { GatewaySchema } from './gateway-record.js';
import { gatewayStores } from './gateway-stores.js';

export const deleteGateway = defineOperation({
  name: 'delete_gateway',
  group: 'gateway_settings',
  mcp: false,
  description: 'Remove a gateway that no channel uses.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1).max(100) }).strict(),
  output: GatewaySchema,
  http: { method: 'DELETE', path: '/api/harness/gateways/:name', status: 204 },
  cli: {
    command: 'gateway remove',
    positionals: ['name'],
    expects: 'exactly one gateway name',
    plugins: true,
    examples: ['svc gateway remove claw'],
    text: (g, print) => print.line(`gateway ${g.name} removed`),
  },
  handler: (input, ctx) => gatewayStores(ctx.services).gateways.remove(input.name),
});
