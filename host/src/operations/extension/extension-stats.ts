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
  handler: (input, ctx) => {
    // This process's calls of the last moments are counted too.
    ctx.services.statsRecorder.flush();
    const { extensions, stats } = ctx.services;
    const records = input.id === undefined ? extensions.list() : [extensions.get(input.id)];
    return { items: records.map((record) => presentExtensionStats(record, extensions, stats)) };
  },
});
