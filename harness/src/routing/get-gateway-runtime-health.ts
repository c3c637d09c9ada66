import { z } from 'zod';
import { defineOperation } from '../../../host/src/operations/index.js';
import { createGatewayClient } from '../gateways/index.js';
import { routingStores } from './routing-stores.js';

export const getGatewayRuntimeHealth = defineOperation({
  name: 'get_gateway_runtime_health',
  group: 'operations',
  description: 'Redacted health of the configured gateways (reachability, last delivery error code) and counts of inbound and outbox states. No tokens, no message text.',
  readOnly: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: z.object({
    gateways: z.array(z.object({ name: z.string(), kind: z.enum(['openclaw', 'hermes']), state: z.enum(['ok', 'unreachable', 'inactive']), detail: z.string(), lastError: z.string().nullable() })),
    inbound: z.record(z.string(), z.number()),
    outbox: z.record(z.string(), z.number()),
  }),
  http: { method: 'GET', path: '/api/internal/harness/gateway/health' },
  async handler(_input, ctx) {
    const stores = routingStores(ctx.services);
    const gateways = await Promise.all(
      stores.gateways.list().map(async (gateway) => {
        const last = ctx.services.db
          .prepare('SELECT last_error_code FROM harness_outbound WHERE gateway_id = ? AND last_error_code IS NOT NULL ORDER BY updated_at DESC LIMIT 1')
          .get(gateway.id) as { last_error_code: string } | undefined;
        const lastError = last?.last_error_code ?? null;
        if (!gateway.active) return { name: gateway.name, kind: gateway.kind, state: 'inactive' as const, detail: 'inactive', lastError };
        try {
          const client = createGatewayClient(gateway, stores.gateways.tokenOf(gateway.id), { hostVersion: ctx.services.platform.hostVersion, env: process.env, timeoutMs: 5000 });
          const health = await client.health(ctx.signal);
          // Only the outcome: a detail could echo a URL or credential the gateway printed.
          return { name: gateway.name, kind: gateway.kind, state: health.ok ? ('ok' as const) : ('unreachable' as const), detail: health.ok ? 'reachable' : 'not reachable', lastError };
        } catch (error) {
          const code = (error as { code?: string }).code ?? 'error';
          return { name: gateway.name, kind: gateway.kind, state: 'unreachable' as const, detail: code, lastError };
        }
      }),
    );
    const outboxRows = ctx.services.db.prepare('SELECT state, COUNT(*) AS n FROM harness_outbound GROUP BY state').all() as { state: string; n: number }[];
    return { gateways, inbound: stores.inbound.counts(), outbox: Object.fromEntries(outboxRows.map((r) => [r.state, r.n])) };
  },
});
