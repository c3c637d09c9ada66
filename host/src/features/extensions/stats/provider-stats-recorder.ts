// Counts what running providers do, in memory on the call path (a few map updates per call), and
// writes the counts to the database in one transaction per interval, off that path. A kill -9
// loses at most the counts of the last interval.
import type { Logger } from '../../../platform/logging/index.js';
import { latencyBucket } from './latency-buckets.js';
import { emptyStatsBatch, isEmptyStatsBatch, type ProviderStatsBatch } from './provider-stats-batch.js';
import { hourOf, type ProviderStatsStore } from './provider-stats-store.js';

/** How often a batch is written (ms). */
export const STATS_FLUSH_INTERVAL_MS = 1000;
const PRUNE_INTERVAL_MS = 3_600_000;

/** One finished adapter call: `code` is undefined when it succeeded. */
export interface FinishedCall {
  id: string;
  method: string;
  ms: number;
  code?: string;
  /** Redacted. */
  message?: string;
}

export interface ProviderStatsRecorderOptions {
  store: ProviderStatsStore;
  logger: Logger;
  flushIntervalMs?: number;
  now?: () => Date;
}

export class ProviderStatsRecorder {
  private batch: ProviderStatsBatch = emptyStatsBatch();
  /** Permission use of this batch, with the time as a number until it is written. */
  private lastUse = new Map<string, { id: string; permission: string; hour: string; calls: number; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private lastPrune = 0;
  private readonly now: () => Date;
  /** The current hour's key and when it ends: the clock is turned into text once an hour, not per call. */
  private hourKey = { hour: '', until: 0 };

  constructor(private readonly options: ProviderStatsRecorderOptions) {
    this.now = options.now ?? (() => new Date());
  }

  call(call: FinishedCall): void {
    const at = this.now();
    const hour = hourOf(at);
    const key = `${call.id}\0${call.method}\0${hour}`;
    let counters = this.batch.calls.get(key);
    if (!counters) {
      counters = { id: call.id, method: call.method, hour, calls: 0, errors: 0, cancelled: 0, timeouts: 0, crashes: 0, maxMs: 0, buckets: new Map() };
      this.batch.calls.set(key, counters);
    }
    counters.calls += 1;
    if (call.ms > counters.maxMs) counters.maxMs = call.ms;
    const bucket = latencyBucket(call.ms);
    counters.buckets.set(bucket, (counters.buckets.get(bucket) ?? 0) + 1);
    if (call.code !== undefined) {
      // A cancel is the caller's choice, not the provider's error.
      if (call.code === 'cancelled') counters.cancelled += 1;
      else {
        counters.errors += 1;
        if (call.code === 'timeout') counters.timeouts += 1;
        if (call.code === 'worker_crashed') counters.crashes += 1;
        const codeKey = `${call.id}\0${call.code}\0${hour}`;
        const byCode = this.batch.errorCodes.get(codeKey) ?? { id: call.id, code: call.code, hour, count: 0 };
        byCode.count += 1;
        this.batch.errorCodes.set(codeKey, byCode);
        this.batch.recentErrors.push({ id: call.id, at: at.toISOString(), method: call.method, code: call.code, message: call.message ?? '' });
      }
    }
    this.schedule();
  }

  /** A cold load: the provider's entry imported and its adapter created on a fresh thread or process. */
  activated(id: string, ms: number): void {
    const at = this.now();
    const hour = hourOf(at);
    const key = `${id}\0${hour}`;
    const counters = this.batch.activations.get(key) ?? { id, hour, count: 0, totalMs: 0, maxMs: 0, lastMs: 0, lastAt: '' };
    counters.count += 1;
    counters.totalMs += ms;
    counters.maxMs = Math.max(counters.maxMs, ms);
    counters.lastMs = ms;
    counters.lastAt = at.toISOString();
    this.batch.activations.set(key, counters);
    this.schedule();
  }

  /** The heap the provider's thread (or process) held after a call, and a hardened process's RSS. */
  memory(id: string, isolation: string, heapUsed: number, rss?: number): void {
    this.batch.memory.set(id, { isolation, heapUsed, ...(rss === undefined ? {} : { rss }), at: this.now().toISOString() });
    this.schedule();
  }

  /** A Host Context call (or an integration call) its granted permission let through: the hottest path here. */
  permissionUsed(id: string, permission: string): void {
    const at = this.now().getTime();
    const hour = this.hourAt(at);
    const key = `${id}\0${permission}\0${hour}`;
    const counters = this.lastUse.get(key);
    if (counters) {
      counters.calls += 1;
      counters.at = at;
    } else {
      this.lastUse.set(key, { id, permission, hour, calls: 1, at });
    }
    this.schedule();
  }

  private hourAt(ms: number): string {
    if (ms >= this.hourKey.until || ms < this.hourKey.until - 3_600_000) {
      const start = Math.floor(ms / 3_600_000) * 3_600_000;
      this.hourKey = { hour: hourOf(new Date(start)), until: start + 3_600_000 };
    }
    return this.hourKey.hour;
  }

  /** Writes what was gathered (the timer does it; readers call it to see their own process's calls). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [key, use] of this.lastUse) {
      this.batch.permissions.set(key, { id: use.id, permission: use.permission, hour: use.hour, calls: use.calls, lastAt: new Date(use.at).toISOString() });
    }
    this.lastUse.clear();
    if (isEmptyStatsBatch(this.batch)) return;
    const batch = this.batch;
    this.batch = emptyStatsBatch();
    try {
      this.options.store.write(batch);
      const now = this.now().getTime();
      if (now - this.lastPrune > PRUNE_INTERVAL_MS) {
        this.lastPrune = now;
        this.options.store.prune(new Date(now));
      }
    } catch (error) {
      // Statistics never fail a call; a batch the database refused is dropped.
      this.options.logger.warn('provider statistics not written', { error: (error as Error).message });
    }
  }

  close(): void {
    this.flush();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.options.flushIntervalMs ?? STATS_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }
}
