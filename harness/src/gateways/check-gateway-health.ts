import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { GATEWAY_KINDS } from './gateway-record.js';
import { createGatewayClient } from './create-gateway-client.js';
import { gatewayStores } from './gateway-stores.js';

export const checkGatewayHealth = defineOperation({
  name: 'check_gateway_health',
  group: 'gateway_settings',
  mcp: false,
  description: 'Connect to a gateway (openclaw: the handshake with its token; hermes: `hermes --version`) without sending anything. Redacted.',
  readOnly: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1).max(100) }).strict(),
  output: z.object({ gateway: z.string(), kind: z.enum(GATEWAY_KINDS), ok: z.boolean(), detail: z.string() }),
  http: { method: 'GET', path: '/api/harness/gateways/:name/health' },
  async handler(input, ctx) {
    const { gateways } = gatewayStores(ctx.services);
    const gateway = gateways.get(input.name);
    const client = createGatewayClient(gateway, gateways.tokenOf(gateway.id), { hostVersion: ctx.services.platform.hostVersion, timeoutMs: 10_000 });
    const health = await client.health(ctx.signal);
    return { gateway: gateway.name, kind: gateway.kind, ok: health.ok, detail: ctx.services.logger.redactor.text(health.detail) };
  },
});
