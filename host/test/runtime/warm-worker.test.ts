// A provider's worker thread started ahead of its first call (while the caller's preflight runs):
// the call that follows runs on that very thread, which had run no provider code before it, and its
// task is handed to the thread while it still starts; a pool no call comes for, or whose calls have
// ended, is closed once idle; a hardened provider is not started ahead.
// Real worker threads and the built worker bootstrap, with a plain-JS provider.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import type Piscina from 'piscina';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { ProviderPools } from '../../src/features/extensions/runtime/provider-pools.js';
import { ExtensionRuntime, PluginStorageStore, resolveRuntimeLimits, resolveWorkerFile, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import type { WorkerTask } from '../../src/features/extensions/runtime/rpc-messages.js';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Logger } from '../../src/platform/logging/index.js';

const PROVIDER = fileURLToPath(new URL('./fixtures/limits-provider.mjs', import.meta.url));
const extension: LoadableExtension = { id: 'svc-test.limits', entryPath: PROVIDER, revision: `${PROVIDER}:1`, granted: new Set(), cli: { command: 'none', version: '1.0.0' } };
let dir: string;
let db: Db;
const closers: Array<() => Promise<void>> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-warm-'));
  db = openDatabase(join(dir, 'svc.db'));
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function pools(idleTimeoutMs: number): ProviderPools {
  const made = new ProviderPools({ limits: resolveRuntimeLimits({ idleTimeoutMs }), logger: new Logger(), hostEnv: process.env, workerFile: resolveWorkerFile() });
  closers.push(() => made.close());
  return made;
}

function runtime(idleTimeoutMs: number): ExtensionRuntime {
  const made = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger(),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    limits: { idleTimeoutMs },
  });
  closers.push(() => made.close());
  return made;
}

test('the first call runs on the thread started ahead of it, in the same pool', async () => {
  const providerPools = pools(60_000);
  await providerPools.warm(extension.id);
  expect(providerPools.threadCount(extension.id)).toBe(1);
  const warmed = providerPools.poolFor({ ...extension, isolation: 'worker' });
  const threadIds = warmed.pool.threads.map((thread) => thread.threadId);
  expect(warmed.revision).toBe(extension.revision);
  expect(warmed.entryPath).toBe(PROVIDER);
  // The same pool for the call's revision from now on: the warm thread is not replaced.
  expect(providerPools.poolFor({ ...extension, isolation: 'worker' })).toBe(warmed);
  expect(warmed.pool.threads.map((thread) => thread.threadId)).toEqual(threadIds);
});

test('a call made while its thread still starts waits for nothing: its task goes to that thread at once, the only task it runs', async () => {
  const providerPools = pools(60_000);
  // piscina is loaded with the first pool a process makes: that one is not what this measures.
  await providerPools.warm('svc-test.other', false);
  void providerPools.warm(extension.id, false);
  const call = { ...extension, isolation: 'worker' as const };
  expect(providerPools.prepare(call)).toBeUndefined();
  const entry = providerPools.poolFor(call);
  const { port1, port2 } = new MessageChannel();
  const answer = new Promise((resolve) => port1.on('message', (message: { t: string }) => message.t === 'done' && resolve(message)));
  const task: WorkerTask = {
    port: port2,
    entryPath: entry.entryPath,
    pluginId: extension.id,
    method: 'generate',
    args: [{ prompt: 'hello', cwd: dir }],
    cli: extension.cli,
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    maxEventBytes: 1024 * 1024,
    maxMessageDepth: 128,
  };
  const run = entry.pool.run(task, { transferList: [port2] });
  // With the thread: no task waits in piscina's queue for the thread to report that it is up.
  expect((entry.pool as unknown as Piscina).queueSize).toBe(0);
  expect(await answer).toMatchObject({ ok: true, v: { text: 'hello' } });
  await run;
  port1.close();
  expect((entry.pool as unknown as Piscina).completed).toBe(1);
  expect(providerPools.threadCount(extension.id)).toBe(1);
});

test('a pool whose calls have ended is closed once idle, and the next call starts a fresh thread', async () => {
  const idle = runtime(200);
  expect(await idle.call(extension, 'generate', [{ prompt: 'one', cwd: dir }])).toMatchObject({ text: 'one' });
  expect(idle.threadCount(extension.id)).toBe(1);
  await expect.poll(() => idle.threadCount(extension.id), { timeout: 20_000 }).toBe(0);
  expect(await idle.call(extension, 'generate', [{ prompt: 'two', cwd: dir }])).toMatchObject({ text: 'two' });
  expect(idle.threadCount(extension.id)).toBe(1);
});

test('a call made while its thread is still starting waits for that thread instead of starting a second', async () => {
  const warm = runtime(60_000);
  warm.warm(extension.id, 'worker');
  expect(await warm.call(extension, 'generate', [{ prompt: 'hello', cwd: dir }])).toMatchObject({ text: 'hello' });
  expect(warm.threadCount(extension.id)).toBe(1);
});

test('a thread started ahead that no call comes for is released when idle', async () => {
  const warm = runtime(100);
  warm.warm(extension.id, 'worker');
  await expect.poll(() => warm.threadCount(extension.id), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => warm.threadCount(extension.id), { timeout: 20_000 }).toBe(0);
});

test('a hardened provider is not started ahead, and a second warm start adds no thread', async () => {
  const warm = runtime(60_000);
  warm.warm('svc-test.hardened', 'process');
  const providerPools = pools(60_000);
  await providerPools.warm(extension.id);
  await providerPools.warm(extension.id);
  expect(providerPools.threadCount(extension.id)).toBe(1);
  expect(warm.threadCount('svc-test.hardened')).toBe(0);
});
