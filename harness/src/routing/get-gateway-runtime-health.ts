import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { createGatewayClient } from '../gateways/index.js';
import { readLogLines } from './read-log-lines.js';
import { routingStores } from './routing-stores.js';

const LOG_LINES = 5;
const STUCK_LIMIT = 10;

export const getGatewayRuntimeHealth = defineOperation({
  name: 'get_gateway_runtime_health',
  group: 'operations',
  description:
    'Redacted health of the configured gateways (reachability, last delivery error code), counts of inbound and outbox states, and requests that ' +
    'failed or are stuck in routing. Each unhealthy gateway and stuck request comes with its last log lines (redacted, at most five, cut short).',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'gateway health and counts: no project records' },
  reach: { taskCaller: 'refused' },
  input: z.object({}).strict(),
  output: z.object({
    gateways: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(['openclaw', 'hermes']),
        state: z.enum(['ok', 'unreachable', 'inactive']),
        detail: z.string(),
        lastError: z.string().nullable(),
        logLines: z.array(z.string()).describe('the last log lines naming this gateway, when it is unreachable or its last send failed'),
      }),
    ),
    stuckRequests: z.array(
      z.object({ inboundId: z.number(), state: z.string(), lastError: z.string().nullable(), updatedAt: z.string(), logLines: z.array(z.string()) }),
    ),
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
    // A request is stuck when its routing failed, or its routing lease ran out with nobody finishing it.
    const stuck = ctx.services.db
      .prepare(
        `SELECT id, state, last_error_code, updated_at FROM harness_gateway_inbound
         WHERE state = 'FAILED' OR (state = 'ROUTING' AND lease_until < ?) ORDER BY id DESC LIMIT ?`,
      )
      .all(new Date().toISOString(), STUCK_LIMIT) as { id: number; state: string; last_error_code: string | null; updated_at: string }[];
    const unhealthy = gateways.map((gateway, i) => ({ gateway, id: stores.gateways.list()[i]!.id })).filter(({ gateway }) => gateway.state === 'unreachable' || gateway.lastError !== null);
    // A gateway's token is a secret to the lines read back, whatever the process that logged them knew.
    const redactor = ctx.services.logger.redactor;
    for (const { id } of unhealthy) redactor.addSecret(stores.gateways.tokenOf(id));
    const lines = readLogLines(ctx.services.svcHome, redactor, [
      ...unhealthy.map(({ gateway, id }) => ({ fields: { gatewayId: id, gateway: gateway.name }, limit: LOG_LINES })),
      ...stuck.map((row) => ({ fields: { inboundId: row.id }, limit: LOG_LINES })),
    ]);
    const byGateway = new Map(unhealthy.map(({ gateway }, i) => [gateway.name, lines[i]!]));
    return {
      gateways: gateways.map((gateway) => ({ ...gateway, logLines: byGateway.get(gateway.name) ?? [] })),
      stuckRequests: stuck.map((row, i) => ({
        inboundId: row.id,
        state: row.state,
        lastError: row.last_error_code,
        updatedAt: row.updated_at,
        logLines: lines[unhealthy.length + i]!,
      })),
      inbound: stores.inbound.counts(),
      outbox: Object.fromEntries(outboxRows.map((r) => [r.state, r.n])),
    };
  },
});
