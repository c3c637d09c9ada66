// Running providers (VS Code's "Running Extensions"): per provider its state and isolation, cold
// load time, calls per adapter method with latency, errors by code, cancellations, deadlines,
// crashes and quarantine, memory, its last errors (redacted when recorded), and how often each
// granted permission was used. Read from the statistics the runtime writes; nothing is changed.
import { z } from 'zod';
import type { ExtensionService } from '../../features/extensions/index.js';
import type { ExtensionRecord } from '../../features/extensions/registry/index.js';
import { EXTENSION_STATES } from '../../features/extensions/registry/index.js';
import type { ProviderStatsStore } from '../../features/extensions/stats/index.js';
import { defineOperation } from '../../operation-framework/index.js';
import { IsolationModeSchema } from '../../features/extensions/runtime/index.js';

const MethodStatsSchema = z.object({
  method: z.string(),
  calls: z.number(),
  errors: z.number(),
  cancelled: z.number(),
  timeouts: z.number(),
  crashes: z.number(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  maxMs: z.number().nullable(),
});

export const ExtensionStatsSchema = z.object({
  id: z.string(),
  version: z.string(),
  state: z.enum(EXTENSION_STATES),
  isolation: IsolationModeSchema,
  /** Broken by the crash-loop quarantine until enabled again. */
  quarantined: z.boolean(),
  /** The figures cover the time since then (the kept window). */
  since: z.string(),
  activation: z.object({ count: z.number(), lastMs: z.number(), meanMs: z.number(), maxMs: z.number(), lastAt: z.string() }).nullable(),
  methods: z.array(MethodStatsSchema),
  errorsByCode: z.record(z.string(), z.number()),
  cancellations: z.number(),
  deadlines: z.number(),
  crashes: z.number(),
  /** Heap of the provider's thread or process after its last call; RSS of a hardened process. */
  memory: z.object({ isolation: z.string(), heapUsedBytes: z.number(), rssBytes: z.number().nullable(), at: z.string() }).nullable(),
  recentErrors: z.array(z.object({ at: z.string(), method: z.string(), code: z.string(), message: z.string() })),
  /** Each granted permission: Host Context calls that used it in the window, and when last. */
  permissions: z.array(z.object({ permission: z.string(), calls: z.number(), lastAt: z.string().nullable(), neverUsed: z.boolean() })),
});

export function presentExtensionStats(record: ExtensionRecord, extensions: Pick<ExtensionService, 'isolationOf'>, store: ProviderStatsStore): z.input<typeof ExtensionStatsSchema> {
  const stats = store.read(record.id);
  const use = new Map(stats.permissionUse.map((entry) => [entry.permission, entry]));
  return {
    id: record.id,
    version: record.version,
    state: record.state,
    isolation: extensions.isolationOf(record).mode,
    quarantined: record.state === 'broken' && record.error?.code === 'crash_loop',
    since: stats.since,
    activation: stats.activation,
    methods: stats.methods,
    errorsByCode: stats.errorsByCode,
    cancellations: stats.cancellations,
    deadlines: stats.deadlines,
    crashes: stats.crashes,
    memory: stats.memory,
    recentErrors: stats.recentErrors,
    permissions: record.grantedPermissions.map((permission) => {
      const used = use.get(permission);
      return { permission, calls: used?.calls ?? 0, lastAt: used?.lastAt ?? null, neverUsed: used === undefined };
    }),
  };
}

const ms = (value: number | null) => (value === null ? '-' : `${value} ms`);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One provider's figures as `svc ext stats` prints them, line by line. */
function statsLines(stats: z.output<typeof ExtensionStatsSchema>): string[] {
  const lines = [`${stats.id} ${stats.version}  ${stats.state}${stats.quarantined ? ' (quarantined: crash loop)' : ''}  ${stats.isolation}  last 30 days (since ${stats.since.slice(0, 10)})`];
  lines.push(
    stats.activation
      ? `  activation: last ${ms(stats.activation.lastMs)}, mean ${ms(stats.activation.meanMs)}, max ${ms(stats.activation.maxMs)} (${stats.activation.count} cold load${stats.activation.count === 1 ? '' : 's'})`
      : '  activation: not loaded yet',
  );
  if (stats.methods.length === 0) lines.push('  calls: none');
  else {
    const header = ['METHOD', 'CALLS', 'ERRORS', 'CANCELLED', 'DEADLINES', 'CRASHES', 'P50', 'P95', 'MAX'];
    const rows = stats.methods.map((m) => [m.method, String(m.calls), String(m.errors), String(m.cancelled), String(m.timeouts), String(m.crashes), ms(m.p50Ms), ms(m.p95Ms), ms(m.maxMs)]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    for (const row of [header, ...rows]) lines.push(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}`);
  }
  const codes = Object.entries(stats.errorsByCode);
  lines.push(`  errors by code: ${codes.length === 0 ? 'none' : codes.map(([code, n]) => `${code} ${n}`).join(', ')}`);
  lines.push(`  cancellations ${stats.cancellations}, deadlines hit ${stats.deadlines}, crashes ${stats.crashes}`);
  if (stats.memory) {
    lines.push(`  memory: heap ${mib(stats.memory.heapUsedBytes)}${stats.memory.rssBytes === null ? '' : `, process RSS ${mib(stats.memory.rssBytes)}`} (${stats.memory.at})`);
  }
  lines.push('  permissions:');
  if (stats.permissions.length === 0) lines.push('    (none granted)');
  for (const p of stats.permissions) {
    lines.push(`    ${p.permission.padEnd(20)} ${p.neverUsed ? 'never used (in the last 30 days)' : `${p.calls} call${p.calls === 1 ? '' : 's'}, last ${p.lastAt}`}`);
  }
  if (stats.recentErrors.length > 0) {
    lines.push('  last errors:');
    for (const e of stats.recentErrors) lines.push(`    ${e.at}  ${e.method}  ${e.code}: ${e.message}`);
  }
  return lines;
}

export const getExtensionStats = defineOperation({
  name: 'get_extension_stats',
  group: 'extension',
  mcp: false,
  description:
    'Running providers: per provider its state and isolation, activation time, calls per adapter method with p50/p95/max latency, errors by code, cancellations, deadlines, crashes and quarantine, memory, the last five errors, and the use of each granted permission (last 30 days).',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ id: z.string().min(1).max(214).optional() }).strict(),
  output: z.object({ items: z.array(ExtensionStatsSchema) }),
  http: { method: 'GET', path: '/api/extensions/stats' },
  cli: {
    command: 'ext stats',
    description: 'Show how providers behave: calls and latency per method, errors, crashes, memory, and the use of each granted permission.',
    positionals: ['id?'],
    expects: 'at most one extension id',
    examples: ['svc ext stats svc-official.codex'],
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no extensions registered');
      // A blank line between providers.
      items.forEach((stats, index) => {
        if (index > 0) print.line('');
        for (const line of statsLines(stats)) print.line(line);
      });
    },
  },
  handler: (input, ctx) => {
    // This process's calls of the last moments are counted too.
    ctx.services.statsRecorder.flush();
    const { extensions, stats } = ctx.services;
    const records = input.id === undefined ? extensions.list() : [extensions.get(input.id)];
    return { items: records.map((record) => presentExtensionStats(record, extensions, stats)) };
  },
});
