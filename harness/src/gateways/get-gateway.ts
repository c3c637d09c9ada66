import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { GatewaySchema } from './gateway-record.js';
import { gatewayStores } from './gateway-stores.js';

export const getGateway = defineOperation({
  name: 'get_gateway',
  group: 'gateway_settings',
  mcp: false,
  description: 'One gateway (its token is never shown).',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1).max(100) }).strict(),
  output: GatewaySchema,
  http: { method: 'GET', path: '/api/harness/gateways/:name' },
  cli: {
    command: 'gateway show',
    positionals: ['name'],
    expects: 'exactly one gateway name',
    plugins: true,
    examples: ['svc gateway show claw'],
    text: (g, print) => print.line(`name     ${g.name}\nkind     ${g.kind}\naddress  ${g.url ?? g.command ?? 'hermes (on PATH)'}\ntoken    ${g.tokenSet ? '(set, write-only)' : '(none)'}\nactive   ${g.active}`),
  },
  handler: (input, ctx) => gatewayStores(ctx.services).gateways.get(input.name),
});
