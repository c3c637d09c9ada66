import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, transaction, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { EventStore, EventWorker, type DomainEvent } from '../../src/platform/events/index.js';

let dir: string;
let db: Db;
let domain: Domain;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-events-'));
  db = openDatabase(join(dir, 'svc.db'));
  domain = new Domain(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function task() {
  const workspace = domain.workspaces.create({ name: `ws-${Math.random().toString(36).slice(2, 8)}` });
  const project = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: dir });
  return domain.tasks.create({ projectId: project.id, title: 'work' });
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('durable events', () => {
  test('an execution end, a status change and a stop hook each write their event with the change', () => {
    const t = task();
    domain.tasks.update(t.id, { status: 'IN_PROGRESS' });
    const execution = domain.executions.create({ taskId: t.id, connectionId: null, connectionName: 'c', providerId: 'p', mode: 'fresh', sessionId: null });
    domain.executions.finish(execution.id, { status: 'COMPLETED', endReason: 'exited', exitCode: 0 });
    domain.executions.finish(execution.id, { status: 'FAILED', endReason: 'service_restart' });
    domain.stopNotifications.add({ taskId: t.id, executionId: execution.id, sessionId: 's-1', payload: {} });
    const events = domain.events.list();
    expect(events.map((e) => e.type)).toEqual(['task_status_changed', 'execution_ended', 'stop_hook_arrived']);
    expect(events[0]!.payload).toMatchObject({ taskId: t.id, from: 'TODO', to: 'IN_PROGRESS' });
    expect(events[1]!.payload).toMatchObject({ executionId: execution.id, status: 'COMPLETED' });
    expect(events.every((e) => e.status === 'pending')).toBe(true);
  });

  test("written in the caller's transaction: a rollback leaves neither the change nor its event", () => {
    const t = task();
    expect(() =>
      transaction(db, () => {
        domain.tasks.update(t.id, { status: 'IN_PROGRESS' });
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(domain.tasks.get(t.id).status).toBe('TODO');
    expect(domain.events.list()).toEqual([]);
  });

  test('the same dedup key is stored once', () => {
    expect(domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'k-1', payload: {} })).toBe(true);
    expect(domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'k-1', payload: {} })).toBe(false);
    expect(domain.events.list()).toHaveLength(1);
  });

  test('two workers on two connections never claim the same event', () => {
    for (let i = 0; i < 10; i += 1) domain.events.append({ type: 'stop_hook_arrived', dedupKey: `k-${i}`, payload: { i } });
    const other = openDatabase(join(dir, 'svc.db'));
    try {
      const a = domain.events.claim({ owner: 'a', leaseMs: 60_000, limit: 6 });
      const b = new EventStore(other).claim({ owner: 'b', leaseMs: 60_000, limit: 6 });
      expect(a).toHaveLength(6);
      expect(b).toHaveLength(4);
      expect(new Set([...a, ...b].map((e) => e.id)).size).toBe(10);
      expect(domain.events.complete(a[0]!.id, 'b')).toBe(false);
      expect(domain.events.complete(a[0]!.id, 'a')).toBe(true);
    } finally {
      other.close();
    }
  });

  test("releaseClaims returns a dead worker's claims at once, with the attempt it used still counted", () => {
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'held', payload: {} });
    expect(domain.events.claim({ owner: 'dead', leaseMs: 60_000, limit: 5 })).toHaveLength(1);
    expect(domain.events.claim({ owner: 'next', leaseMs: 60_000, limit: 5 })).toEqual([]);
    expect(domain.events.releaseClaims()).toBe(1);
    const [again] = domain.events.claim({ owner: 'next', leaseMs: 60_000, limit: 5 });
    expect(again).toMatchObject({ dedupKey: 'held', leaseOwner: 'next', attempts: 2 });
  });

  test('an idle claim takes no write lock: another connection holding one does not block it', () => {
    const other = openDatabase(join(dir, 'svc.db'));
    try {
      other.exec('BEGIN IMMEDIATE');
      expect(domain.events.claim({ owner: 'a', leaseMs: 1000, limit: 5 })).toEqual([]);
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
  });

  test('onAppend listeners hear each new event once, not a repeated dedup key', () => {
    let heard = 0;
    const stop = domain.events.onAppend(() => (heard += 1));
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'a', payload: {} });
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'a', payload: {} });
    stop();
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'b', payload: {} });
    expect(heard).toBe(1);
  });
});

describe('EventWorker', () => {
  test('handles events, retries a failing one with back-off, and stop() waits for the loop', async () => {
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'ok', payload: {} });
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'flaky', payload: {} });
    const seen: string[] = [];
    const worker = new EventWorker({
      store: domain.events,
      owner: 'w',
      pollMs: 10,
      maxBackoffMs: 20,
      handle: async (event: DomainEvent) => {
        seen.push(`${event.dedupKey}#${event.attempts}`);
        if (event.dedupKey === 'flaky' && event.attempts < 3) throw new Error('not yet');
      },
    });
    expect(worker.state).toBe('created');
    worker.start();
    expect(worker.state).toBe('active');
    await until(() => domain.events.list().every((e) => e.status === 'done'));
    const stopping = worker.stop();
    expect(worker.state).toBe('stopping');
    await stopping;
    expect(worker.state).toBe('stopped');
    expect(seen).toEqual(['ok#1', 'flaky#1', 'flaky#2', 'flaky#3']);
    expect(domain.events.list().find((e) => e.dedupKey === 'flaky')).toMatchObject({ attempts: 3, status: 'done', lastError: 'not yet' });
  });

  test('an event that keeps failing is marked failed after maxAttempts', async () => {
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'bad', payload: {} });
    const worker = new EventWorker({ store: domain.events, owner: 'w', pollMs: 5, maxBackoffMs: 5, maxAttempts: 2, handle: async () => Promise.reject(new Error('always')) });
    worker.start();
    await until(() => domain.events.list()[0]!.status === 'failed');
    await worker.stop();
    expect(domain.events.list()[0]).toMatchObject({ attempts: 2, status: 'failed' });
  });

  test('notify() wakes a worker that is waiting out a long poll interval', async () => {
    const handled: number[] = [];
    const worker = new EventWorker({ store: domain.events, owner: 'w', pollMs: 60_000, handle: async (event) => void handled.push(event.id) });
    worker.start();
    await new Promise((r) => setTimeout(r, 50));
    domain.events.append({ type: 'stop_hook_arrived', dedupKey: 'now', payload: {} });
    worker.notify();
    await until(() => handled.length === 1, 2_000);
    await worker.stop();
  });

  test('handled events older than the retention are pruned; recent, pending and failed ones stay', async () => {
    let clock = Date.now();
    const store = new EventStore(db, () => clock);
    for (const key of ['old-done', 'old-failed', 'recent-done', 'pending']) store.append({ type: 'stop_hook_arrived', dedupKey: key, payload: {} });
    const claimed = store.claim({ owner: 'w', leaseMs: 60_000, limit: 3 });
    store.complete(claimed[0]!.id, 'w');
    store.fail(claimed[1]!.id, 'w', 'gave up', clock, 1);
    clock += 8 * 24 * 3_600_000;
    store.complete(claimed[2]!.id, 'w');
    const worker = new EventWorker({ store, owner: 'w', pollMs: 60_000, now: () => clock, handle: async () => undefined });
    worker.start();
    await until(() => !store.list().some((e) => e.dedupKey === 'old-done'));
    await worker.stop();
    // The pending one was handled just now by the same worker: recent, so it stays too.
    expect(store.list().map((e) => [e.dedupKey, e.status])).toEqual([
      ['old-failed', 'failed'],
      ['recent-done', 'done'],
      ['pending', 'done'],
    ]);
  });

  test('consecutive errors of the loop back off instead of spinning', async () => {
    const broken = openDatabase(join(dir, 'broken.db'));
    const store = new EventStore(broken);
    broken.close();
    let errors = 0;
    const worker = new EventWorker({ store, owner: 'w', pollMs: 10, maxBackoffMs: 10_000, handle: async () => undefined, onError: () => (errors += 1) });
    worker.start();
    await new Promise((r) => setTimeout(r, 400));
    await worker.stop();
    // Without back-off: ~40 polls in 400 ms; with it (20, 40, 80, 160 ms…): a handful.
    expect(errors).toBeGreaterThan(0);
    expect(errors).toBeLessThanOrEqual(6);
  });
});
