// The provider statistics tables (migration 0016): batches merged in, hours older than the kept
// window pruned, and one provider's figures read back for `svc ext stats`, the API and the web page.
import type { Db } from '../../../platform/db/index.js';
import { transaction } from '../../../platform/db/index.js';
import { latencyQuantile } from './latency-buckets.js';
import type { ProviderStatsBatch } from './provider-stats-batch.js';

/** How long hourly rows are kept, and the window the figures cover. */
export const STATS_KEPT_DAYS = 30;
/** How many of a provider's last errors are kept. */
export const RECENT_ERRORS_KEPT = 5;

export interface MethodStats {
  method: string;
  calls: number;
  errors: number;
  cancelled: number;
  timeouts: number;
  crashes: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
}

export interface ProviderStats {
  id: string;
  since: string;
  methods: MethodStats[];
  errorsByCode: Record<string, number>;
  cancellations: number;
  deadlines: number;
  crashes: number;
  activation: { count: number; lastMs: number; meanMs: number; maxMs: number; lastAt: string } | null;
  memory: { isolation: string; heapUsedBytes: number; rssBytes: number | null; at: string } | null;
  recentErrors: Array<{ at: string; method: string; code: string; message: string }>;
  permissionUse: Array<{ permission: string; calls: number; lastAt: string }>;
}

/** `YYYY-MM-DDTHH` of a time (UTC). */
export function hourOf(at: Date): string {
  return at.toISOString().slice(0, 13);
}

export class ProviderStatsStore {
  constructor(private readonly db: Db) {}

  /** Merges one batch in a single transaction. */
  write(batch: ProviderStatsBatch): void {
    const db = this.db;
    transaction(db, () => {
      const calls = db.prepare(
        `INSERT INTO provider_call_stats (extension_id, method, hour, calls, errors, cancelled, timeouts, crashes, max_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (extension_id, method, hour) DO UPDATE SET calls = calls + excluded.calls, errors = errors + excluded.errors,
           cancelled = cancelled + excluded.cancelled, timeouts = timeouts + excluded.timeouts, crashes = crashes + excluded.crashes, max_ms = max(max_ms, excluded.max_ms)`,
      );
      const latency = db.prepare(
        `INSERT INTO provider_call_latency (extension_id, method, hour, bucket, count) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (extension_id, method, hour, bucket) DO UPDATE SET count = count + excluded.count`,
      );
      for (const c of batch.calls.values()) {
        calls.run(c.id, c.method, c.hour, c.calls, c.errors, c.cancelled, c.timeouts, c.crashes, c.maxMs);
        for (const [bucket, count] of c.buckets) latency.run(c.id, c.method, c.hour, bucket, count);
      }
      const codes = db.prepare(
        `INSERT INTO provider_error_counts (extension_id, code, hour, count) VALUES (?, ?, ?, ?)
         ON CONFLICT (extension_id, code, hour) DO UPDATE SET count = count + excluded.count`,
      );
      for (const e of batch.errorCodes.values()) codes.run(e.id, e.code, e.hour, e.count);
      const activations = db.prepare(
        `INSERT INTO provider_activations (extension_id, hour, count, total_ms, max_ms, last_ms, last_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (extension_id, hour) DO UPDATE SET count = count + excluded.count, total_ms = total_ms + excluded.total_ms,
           max_ms = max(max_ms, excluded.max_ms), last_ms = excluded.last_ms, last_at = excluded.last_at`,
      );
      for (const a of batch.activations.values()) activations.run(a.id, a.hour, a.count, a.totalMs, a.maxMs, a.lastMs, a.lastAt);
      const recent = db.prepare('INSERT INTO provider_recent_errors (extension_id, at, method, code, message) VALUES (?, ?, ?, ?, ?)');
      const trim = db.prepare(
        'DELETE FROM provider_recent_errors WHERE extension_id = ? AND id NOT IN (SELECT id FROM provider_recent_errors WHERE extension_id = ? ORDER BY id DESC LIMIT ?)',
      );
      for (const e of batch.recentErrors) recent.run(e.id, e.at, e.method, e.code, e.message);
      for (const id of new Set(batch.recentErrors.map((e) => e.id))) trim.run(id, id, RECENT_ERRORS_KEPT);
      const memory = db.prepare(
        `INSERT INTO provider_memory (extension_id, isolation, heap_used, rss, at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (extension_id) DO UPDATE SET isolation = excluded.isolation, heap_used = excluded.heap_used, rss = excluded.rss, at = excluded.at`,
      );
      for (const [id, m] of batch.memory) memory.run(id, m.isolation, m.heapUsed, m.rss ?? null, m.at);
      const permissions = db.prepare(
        `INSERT INTO permission_use (extension_id, permission, hour, calls, last_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (extension_id, permission, hour) DO UPDATE SET calls = calls + excluded.calls, last_at = max(last_at, excluded.last_at)`,
      );
      for (const p of batch.permissions.values()) permissions.run(p.id, p.permission, p.hour, p.calls, p.lastAt);
    });
  }

  /** Drops the hours before the kept window. */
  prune(now: Date): void {
    const before = hourOf(new Date(now.getTime() - STATS_KEPT_DAYS * 86_400_000));
    transaction(this.db, () => {
      for (const table of ['provider_call_stats', 'provider_call_latency', 'provider_error_counts', 'provider_activations', 'permission_use']) {
        this.db.prepare(`DELETE FROM ${table} WHERE hour < ?`).run(before);
      }
    });
  }

  /** One provider's figures over the kept window. */
  read(id: string, now: Date = new Date()): ProviderStats {
    const sinceDate = new Date(now.getTime() - STATS_KEPT_DAYS * 86_400_000);
    const since = hourOf(sinceDate);
    const methods = this.methodStats(id, since);
    const sum = (key: 'cancelled' | 'timeouts' | 'crashes') => methods.reduce((total, m) => total + m[key], 0);
    const memory = this.db.prepare('SELECT isolation, heap_used, rss, at FROM provider_memory WHERE extension_id = ?').get(id) as
      | { isolation: string; heap_used: number; rss: number | null; at: string }
      | undefined;
    return {
      id,
      since: sinceDate.toISOString(),
      methods,
      errorsByCode: this.errorsByCode(id, since),
      cancellations: sum('cancelled'),
      deadlines: sum('timeouts'),
      crashes: sum('crashes'),
      activation: this.activation(id, since),
      memory: memory ? { isolation: memory.isolation, heapUsedBytes: Number(memory.heap_used), rssBytes: memory.rss === null ? null : Number(memory.rss), at: memory.at } : null,
      recentErrors: this.recentErrors(id),
      permissionUse: this.permissionUse(id, since),
    };
  }

  /** Calls, failures and latency quantiles per adapter method since `since`. */
  private methodStats(id: string, since: string): MethodStats[] {
    const rows = this.db
      .prepare(
        `SELECT method, SUM(calls) AS calls, SUM(errors) AS errors, SUM(cancelled) AS cancelled, SUM(timeouts) AS timeouts, SUM(crashes) AS crashes, MAX(max_ms) AS max_ms
         FROM provider_call_stats WHERE extension_id = ? AND hour >= ? GROUP BY method ORDER BY method`,
      )
      .all(id, since) as Array<{ method: string; calls: number; errors: number; cancelled: number; timeouts: number; crashes: number; max_ms: number }>;
    const buckets = this.db
      .prepare('SELECT method, bucket, SUM(count) AS count FROM provider_call_latency WHERE extension_id = ? AND hour >= ? GROUP BY method, bucket')
      .all(id, since) as Array<{ method: string; bucket: number; count: number }>;
    const histograms = new Map<string, Map<number, number>>();
    for (const row of buckets) {
      const histogram = histograms.get(row.method) ?? new Map<number, number>();
      histogram.set(Number(row.bucket), Number(row.count));
      histograms.set(row.method, histogram);
    }
    return rows.map((row): MethodStats => {
      const histogram = histograms.get(row.method) ?? new Map<number, number>();
      const maxMs = Number(row.max_ms);
      const round = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms * 10) / 10);
      return {
        method: row.method,
        calls: Number(row.calls),
        errors: Number(row.errors),
        cancelled: Number(row.cancelled),
        timeouts: Number(row.timeouts),
        crashes: Number(row.crashes),
        p50Ms: round(latencyQuantile(histogram, 0.5, maxMs)),
        p95Ms: round(latencyQuantile(histogram, 0.95, maxMs)),
        maxMs: Number(row.calls) > 0 ? round(maxMs) : null,
      };
    });
  }

  private errorsByCode(id: string, since: string): Record<string, number> {
    const errorsByCode: Record<string, number> = {};
    for (const row of this.db
      .prepare('SELECT code, SUM(count) AS count FROM provider_error_counts WHERE extension_id = ? AND hour >= ? GROUP BY code ORDER BY code')
      .all(id, since) as Array<{ code: string; count: number }>) {
      errorsByCode[row.code] = Number(row.count);
    }
    return errorsByCode;
  }

  /** How often and how fast the provider was loaded since `since`; null when it was not. */
  private activation(id: string, since: string): ProviderStats['activation'] {
    const activation = this.db
      .prepare(
        `SELECT SUM(count) AS count, SUM(total_ms) AS total_ms, MAX(max_ms) AS max_ms,
           (SELECT last_ms FROM provider_activations WHERE extension_id = ?1 AND hour >= ?2 ORDER BY last_at DESC LIMIT 1) AS last_ms,
           MAX(last_at) AS last_at
         FROM provider_activations WHERE extension_id = ?1 AND hour >= ?2`,
      )
      .get(id, since) as { count: number | null; total_ms: number; max_ms: number; last_ms: number; last_at: string };
    const activations = Number(activation.count ?? 0);
    if (activations === 0) return null;
    return { count: activations, lastMs: round1(activation.last_ms), meanMs: round1(activation.total_ms / activations), maxMs: round1(activation.max_ms), lastAt: activation.last_at };
  }

  private recentErrors(id: string): ProviderStats['recentErrors'] {
    const rows = this.db
      .prepare('SELECT at, method, code, message FROM provider_recent_errors WHERE extension_id = ? ORDER BY id DESC LIMIT ?')
      .all(id, RECENT_ERRORS_KEPT) as Array<{ at: string; method: string; code: string; message: string }>;
    return rows.map((row) => ({ at: row.at, method: row.method, code: row.code, message: row.message }));
  }

  private permissionUse(id: string, since: string): ProviderStats['permissionUse'] {
    const rows = this.db
      .prepare('SELECT permission, SUM(calls) AS calls, MAX(last_at) AS last_at FROM permission_use WHERE extension_id = ? AND hour >= ? GROUP BY permission ORDER BY permission')
      .all(id, since) as Array<{ permission: string; calls: number; last_at: string }>;
    return rows.map((row) => ({ permission: row.permission, calls: Number(row.calls), lastAt: row.last_at }));
  }

  /** Everything recorded of a provider, when it is uninstalled. */
  forget(id: string): void {
    transaction(this.db, () => {
      for (const table of ['provider_call_stats', 'provider_call_latency', 'provider_error_counts', 'provider_activations', 'provider_recent_errors', 'provider_memory', 'permission_use']) {
        this.db.prepare(`DELETE FROM ${table} WHERE extension_id = ?`).run(id);
      }
    });
  }
}

function round1(ms: number): number {
  return Math.round(Number(ms) * 10) / 10;
}
