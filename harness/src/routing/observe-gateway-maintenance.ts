import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;
const Counts = z.object({ total: z.number(), terminalOverSevenDays: z.number(), stuck: z.number() });

/**
 * Read-only maintenance observation: how many inbound rows and review batches a compaction could
 * remove (terminal state, last changed more than seven days ago) and how many look stuck. It
 * removes nothing and never touches an event's payload.
 */
export const observeGatewayMaintenance = defineOperation({
  name: 'observe_gateway_maintenance',
  group: 'operations',
  description:
    'Read-only maintenance view of gateway inbound rows and Workbench review batches: totals, rows in a terminal state for more than seven days, and stuck ' +
    'ones (an expired routing lease or batch claim, a batch delivered but not acknowledged for a day). Compacts nothing.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'counts of gateway rows: no project records' },
  reach: { taskCaller: 'refused' },
  input: z.object({}).strict(),
  output: z.object({ inbound: Counts, batches: Counts, pendingEvents: z.number(), observedAt: z.string() }),
  http: { method: 'GET', path: '/api/internal/harness/gateway/maintenance' },
  handler(_input, ctx) {
    const { db } = ctx.services;
    const now = Date.now();
    const cutoff = new Date(now - SEVEN_DAYS_MS).toISOString();
    const dayAgo = new Date(now - 24 * 60 * 60 * 1000).toISOString();
    const n = (sql: string, ...args: (string | number)[]) => (db.prepare(sql).get(...args) as { n: number }).n;
    return {
      inbound: {
        total: n('SELECT COUNT(*) AS n FROM harness_gateway_inbound'),
        terminalOverSevenDays: n("SELECT COUNT(*) AS n FROM harness_gateway_inbound WHERE state IN ('PROCESSED', 'FAILED') AND updated_at < ?", cutoff),
        stuck: n("SELECT COUNT(*) AS n FROM harness_gateway_inbound WHERE state = 'ROUTING' AND lease_until < ?", now),
      },
      batches: {
        total: n('SELECT COUNT(*) AS n FROM harness_workbench_batches'),
        terminalOverSevenDays: n("SELECT COUNT(*) AS n FROM harness_workbench_batches WHERE state = 'RESOLVED' AND resolved_at < ?", cutoff),
        stuck: n(
          "SELECT COUNT(*) AS n FROM harness_workbench_batches WHERE (state = 'CLAIMED' AND lease_until < ?) OR (state = 'DELIVERED' AND delivered_at < ?)",
          now,
          dayAgo,
        ),
      },
      pendingEvents: n("SELECT COUNT(*) AS n FROM harness_workbench_events WHERE state = 'PENDING'"),
      observedAt: new Date(now).toISOString(),
    };
  },
});
