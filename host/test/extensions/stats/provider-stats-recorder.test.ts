import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../../src/platform/db/index.js';
import { latencyBucket, latencyQuantile, ProviderStatsRecorder, ProviderStatsStore } from '../../../src/features/extensions/stats/index.js';
import { Logger } from '../../../src/platform/logging/index.js';

let dir: string;
let db: Db;
let store: ProviderStatsStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-stats-'));
  db = openDatabase(join(dir, 'svc.db'));
  store = new ProviderStatsStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('counts stay in memory until the batch is written, then all of them land in one write', async () => {
  const recorder = new ProviderStatsRecorder({ store, logger: new Logger(), flushIntervalMs: 50 });
  for (let i = 0; i < 10; i++) recorder.call({ id: 'acme.tool', method: 'stream', ms: 10 + i });
  recorder.call({ id: 'acme.tool', method: 'stream', ms: 900, code: 'timeout', message: 'the call exceeded its deadline' });
  recorder.call({ id: 'acme.tool', method: 'stream', ms: 5, code: 'cancelled', message: 'cancelled' });
  recorder.permissionUsed('acme.tool', 'process:spawn');
  // Nothing is written on the call path: a kill now loses this batch only.
  expect(store.read('acme.tool').methods).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const stats = store.read('acme.tool');
  expect(stats.methods).toEqual([{ method: 'stream', calls: 12, errors: 1, cancelled: 1, timeouts: 1, crashes: 0, p50Ms: expect.any(Number), p95Ms: 900, maxMs: 900 }]);
  expect(stats.methods[0]!.p50Ms).toBeGreaterThanOrEqual(14);
  expect(stats.methods[0]!.p50Ms).toBeLessThan(20);
  // A cancel is the caller's choice: not an error by code, not among the last errors.
  expect(stats.errorsByCode).toEqual({ timeout: 1 });
  expect(stats.recentErrors.map((e) => e.code)).toEqual(['timeout']);
  expect(stats.permissionUse).toEqual([{ permission: 'process:spawn', calls: 1, lastAt: expect.any(String) }]);
  recorder.close();
});

test('batches merge into the same hour, only the last five errors are kept, and hours past 30 days are pruned', () => {
  let now = new Date('2026-10-01T10:15:00Z');
  const recorder = new ProviderStatsRecorder({ store, logger: new Logger(), now: () => now });
  for (let i = 0; i < 7; i++) {
    recorder.call({ id: 'acme.tool', method: 'generate', ms: 1, code: 'cli_failed', message: `failure ${i}` });
    recorder.flush();
  }
  const stats = store.read('acme.tool', now);
  expect(stats.methods[0]).toMatchObject({ calls: 7, errors: 7 });
  expect(stats.recentErrors.map((e) => e.message)).toEqual(['failure 6', 'failure 5', 'failure 4', 'failure 3', 'failure 2']);
  expect(db.prepare('SELECT COUNT(*) AS n FROM provider_call_stats').get()).toMatchObject({ n: 1 });

  now = new Date('2026-11-05T10:00:00Z');
  recorder.call({ id: 'acme.tool', method: 'generate', ms: 1 });
  recorder.flush();
  expect(store.read('acme.tool', now).methods[0]).toMatchObject({ calls: 1, errors: 0 });
  expect(db.prepare('SELECT COUNT(*) AS n FROM provider_call_stats').get()).toMatchObject({ n: 1 });
});

test('latency buckets are a quarter of a doubling apart and percentiles never exceed the largest latency', () => {
  expect(latencyBucket(0.2)).toBe(0);
  expect(latencyBucket(1000)).toBe(40);
  const histogram = new Map([[latencyBucket(10), 9], [latencyBucket(1000), 1]]);
  expect(latencyQuantile(histogram, 0.5, 1000)).toBeCloseTo(2 ** (latencyBucket(10) / 4));
  expect(latencyQuantile(histogram, 0.95, 1000)).toBe(1000);
  expect(latencyQuantile(new Map(), 0.5, 0)).toBeUndefined();
});
