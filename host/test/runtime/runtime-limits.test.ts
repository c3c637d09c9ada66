// The runtime's limits, driven through real worker threads and real processes with a plain-JS
// provider (fixtures/limits-provider.mjs).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { ExtensionRuntime, PluginStorageStore, type LoadableExtension, type RuntimeLimitsInput } from '../../src/features/extensions/runtime/index.js';
import { Logger, type LogRecord } from '../../src/platform/logging/index.js';

const PROVIDER = fileURLToPath(new URL('./fixtures/limits-provider.mjs', import.meta.url));
let dir: string;
let db: Db;
const runtimes: ExtensionRuntime[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-limits-'));
  db = openDatabase(join(dir, 'svc.db'));
  return () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
});
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});

function setup(limits: RuntimeLimitsInput = {}, entryPath = PROVIDER) {
  const records: LogRecord[] = [];
  const logger = new Logger({ sink: (record) => records.push(record) });
  const runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger,
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    limits: { cancelGraceMs: 300, ...limits },
  });
  runtimes.push(runtime);
  const extension: LoadableExtension = { id: 'svc-test.limits', entryPath, revision: entryPath, granted: new Set(), cli: { command: 'none', version: '1.0.0' } };
  return { runtime, extension, records, logger };
}

async function collect(stream: AsyncIterable<CliStreamEvent>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

/**
 * Running, not a zombie: a process the provider's thread started itself is a child of this test
 * process, and once its thread is gone nobody reaps it; killed, it stays a zombie (state Z).
 */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
};
const pidsIn = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);
const waitUntil = async (probe: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('concurrency on one provider', () => {
  test('four calls on one thread run at the same time', async () => {
    const { runtime, extension } = setup({ maxThreads: 1, concurrentTasksPerWorker: 4 });
    const results = await Promise.all([1, 2, 3, 4].map(() => runtime.call(extension, 'generate', [{ prompt: 'overlap 400', cwd: dir }])));
    expect(runtime.threadCount(extension.id)).toBe(1);
    // Each call reports the most calls it saw running at once on its thread.
    expect(Math.max(...results.map((r) => Number((r as { text: string }).text)))).toBe(4);
  });

  test('a call that waits in the queue gets its whole deadline once it runs', async () => {
    const { runtime, extension } = setup({ maxThreads: 1, concurrentTasksPerWorker: 1 });
    const first = runtime.call(extension, 'generate', [{ prompt: 'wait 700', cwd: dir }], { timeoutMs: 1200 });
    const second = runtime.call(extension, 'generate', [{ prompt: 'wait 700', cwd: dir }], { timeoutMs: 1200 });
    await expect(first).resolves.toMatchObject({ text: 'waited' });
    await expect(second).resolves.toMatchObject({ text: 'waited' });
  });

  test('a cancel while the call is queued answers at once and the provider never runs it', async () => {
    const { runtime, extension } = setup({ maxThreads: 1, concurrentTasksPerWorker: 1 });
    const marker = join(dir, 'never-ran');
    const first = runtime.call(extension, 'generate', [{ prompt: 'wait 500', cwd: dir }]);
    const controller = new AbortController();
    const queued = collect(runtime.stream(extension, { prompt: `mark ${marker}`, cwd: dir }, { signal: controller.signal }));
    controller.abort();
    expect(await queued).toEqual([expect.objectContaining({ type: 'error', code: 'cancelled' }), { type: 'finish', finishReason: 'cancelled' }]);
    await first;
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(marker)).toBe(false);
  });
});

describe('a call whose worker does not stop', () => {
  test('a blocking native call is abandoned after the grace period and every process it started is killed', async () => {
    const { runtime, extension, records } = setup();
    const pidfile = join(dir, 'block-deadline.pids');
    const stream = collect(runtime.stream(extension, { prompt: `block ${pidfile}`, cwd: dir }, { timeoutMs: 500 }));
    const events = await stream;
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'timeout', message: expect.stringContaining('abandoned') }), { type: 'finish', finishReason: 'error' }]);
    await waitUntil(() => pidsIn(pidfile).length === 3);
    // The detached grandchild too, found by its thread tag.
    await waitUntil(() => pidsIn(pidfile).every((pid) => !alive(pid)), 5000);
    expect(records.some((r) => r.level === 'warn' && r.message.startsWith('provider worker abandoned'))).toBe(true);
    // The provider serves its next call on a fresh thread.
    expect(await collect(runtime.stream(extension, { prompt: 'again', cwd: dir }))).toEqual([{ type: 'text', text: 'ok again' }, { type: 'finish', finishReason: 'stop' }]);
  });

  test('a cancel of a blocked call answers within the grace period', async () => {
    const { runtime, extension } = setup();
    const pidfile = join(dir, 'block-cancel.pids');
    const controller = new AbortController();
    const events = collect(runtime.stream(extension, { prompt: `block ${pidfile}`, cwd: dir }, { signal: controller.signal }));
    await waitUntil(() => pidsIn(pidfile).length === 3);
    controller.abort();
    expect((await events)[0]).toMatchObject({ type: 'error', code: 'cancelled' });
    await waitUntil(() => pidsIn(pidfile).every((pid) => !alive(pid)), 5000);
  });

  test('closing the runtime with a blocked call in flight ends within a bound', async () => {
    const { runtime, extension } = setup();
    const pidfile = join(dir, 'block-close.pids');
    const events = collect(runtime.stream(extension, { prompt: `block ${pidfile}`, cwd: dir }));
    await waitUntil(() => pidsIn(pidfile).length === 3);
    await runtime.close();
    expect((await events)[0]).toMatchObject({ type: 'error', code: 'cancelled' });
    await waitUntil(() => pidsIn(pidfile).every((pid) => !alive(pid)), 5000);
  });
});

describe('stream events at the host edge', () => {
  test('the byte window holds a slow reader to a bounded number of large events in flight', async () => {
    const { runtime, extension, records } = setup({ eventWindowBytes: 4 * 1024 * 1024, maxEventBytes: 2 * 1024 * 1024 });
    const iterator = runtime.stream(extension, { prompt: `big 20 ${1024 * 1024}`, cwd: dir })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'text' });
    await new Promise((r) => setTimeout(r, 500));
    const yielded = records.filter((r) => r.message.startsWith('yielding')).length;
    // 4 MiB of credit for 1 MiB events: the window, the one read and the one the pump holds.
    expect(yielded).toBeLessThanOrEqual(6);
    let count = 1;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) count++;
    expect(count).toBe(21);
  });

  test('a reader that stops early releases a provider waiting for credit without abandoning its thread', async () => {
    const { runtime, extension, records } = setup({ eventWindowBytes: 4 * 1024 * 1024, maxEventBytes: 2 * 1024 * 1024 });
    for await (const event of runtime.stream(extension, { prompt: `big 50 ${1024 * 1024}`, cwd: dir })) {
      expect(event.type).toBe('text');
      break;
    }
    await new Promise((r) => setTimeout(r, 800));
    expect(records.filter((r) => r.message.startsWith('provider worker abandoned'))).toEqual([]);
    expect(records.filter((r) => r.message.startsWith('yielding')).length).toBeLessThan(10);
  });

  test('an event over the size bound ends the call with event_too_large and the host stays up', async () => {
    const { runtime, extension } = setup({ eventWindowBytes: 4 * 1024 * 1024, maxEventBytes: 1024 * 1024 });
    const events = await collect(runtime.stream(extension, { prompt: `big 1 ${2 * 1024 * 1024}`, cwd: dir }));
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'event_too_large' }), { type: 'finish', finishReason: 'error' }]);
    expect((await collect(runtime.stream(extension, { prompt: 'after', cwd: dir })))[0]).toEqual({ type: 'text', text: 'ok after' });
  });

  test.each([['value', 'text'], ['type', 'type']])('a malformed event (bad %s) gets invalid_event and the host stays up', async (_name, kind) => {
    const { runtime, extension } = setup();
    const events = await collect(runtime.stream(extension, { prompt: `malformed ${kind}`, cwd: dir }));
    expect(events).toEqual([
      { type: 'text', text: 'fine' },
      expect.objectContaining({ type: 'error', code: 'invalid_event' }),
      { type: 'finish', finishReason: 'error' },
    ]);
    expect((await collect(runtime.stream(extension, { prompt: 'after', cwd: dir })))[0]).toEqual({ type: 'text', text: 'ok after' });
  });
});

describe('a provider that yields its events in arrays', () => {
  test('the host relays the same events, one by one and in order, past the credit window', async () => {
    const { runtime, extension } = setup();
    const count = 10_000;
    const events = await collect(runtime.stream(extension, { prompt: `batches ${count}`, cwd: dir }));
    expect(events).toEqual([
      ...Array.from({ length: count }, (_, i) => ({ type: 'text', text: String(i) })),
      { type: 'text', text: 'single' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('a malformed event inside an array is refused like a single one, and what follows it never arrives', async () => {
    const { runtime, extension } = setup();
    const events = await collect(runtime.stream(extension, { prompt: 'malformed-batch', cwd: dir }));
    expect(events).toEqual([
      { type: 'text', text: 'fine' },
      expect.objectContaining({ type: 'error', code: 'invalid_event' }),
      { type: 'finish', finishReason: 'error' },
    ]);
  });
});

describe('what leaves the host is redacted', () => {
  const SECRET = 'planted-registered-secret-7781';

  test('events, in-stream errors and thrown errors never carry a registered secret', async () => {
    const { runtime, extension, logger } = setup();
    logger.redactor.addSecret(SECRET);
    const streamed = JSON.stringify(await collect(runtime.stream(extension, { prompt: `echo-secret ${SECRET}`, cwd: dir })));
    const thrown = JSON.stringify(await collect(runtime.stream(extension, { prompt: `throw-secret ${SECRET}`, cwd: dir })));
    const result = JSON.stringify(await runtime.call(extension, 'generate', [{ prompt: `echo ${SECRET}`, cwd: dir }]));
    for (const text of [streamed, thrown, result]) {
      expect(text).not.toContain(SECRET);
      expect(text).toContain('[redacted]');
    }
  });

  test('a session process description keeps the key it hands the CLI: it never leaves the host', async () => {
    const { runtime, extension, logger } = setup();
    logger.redactor.addSecret(SECRET);
    const description = await runtime.call(extension, 'buildSessionProcess', [{ mode: 'fresh', cwd: dir, model: SECRET }]);
    expect(description).toMatchObject({ envPatch: { LIMITS_KEY: SECRET } });
  });
});

describe('the plugin contract version', () => {
  test('a plugin built for another apiVersion is refused at load with a coded error', async () => {
    const entry = join(dir, 'future-provider.mjs');
    writeFileSync(entry, readFileSync(PROVIDER, 'utf8').replace("?? '1.0'", "?? '2.0'"));
    const { runtime, extension } = setup({}, entry);
    await expect(runtime.call(extension, 'models', [])).rejects.toMatchObject({ code: 'api_version_unsupported' });
  });
});

describe('provider logging', () => {
  test('a provider cannot forge the time, level, message or plugin of a host log record', async () => {
    const { runtime, extension, records } = setup();
    await collect(runtime.stream(extension, { prompt: 'log-forge', cwd: dir }));
    const record = records.find((r) => r.message === 'honest message');
    expect(record).toMatchObject({ level: 'warn', plugin: 'svc-test.limits', fields: { time: 'forged-time', level: 'error', message: 'forged', plugin: 'someone.else', extra: 1 } });
    expect(record!.time).not.toBe('forged-time');
    expect(records.some((r) => r.message === 'forged')).toBe(false);
  });

  test('a provider that floods the log is rate-limited and the drop is reported', async () => {
    const { runtime, extension, records } = setup({ logRecordsPerSecond: 10, logBurst: 20 });
    await collect(runtime.stream(extension, { prompt: 'log-flood 1000', cwd: dir }));
    await new Promise((r) => setTimeout(r, 300));
    await collect(runtime.stream(extension, { prompt: 'log-flood 1', cwd: dir }));
    const flood = records.filter((r) => r.message.startsWith('flood'));
    expect(flood.length).toBeLessThan(30);
    expect(records.find((r) => r.message.startsWith('provider log records dropped'))).toMatchObject({ level: 'warn', dropped: expect.any(Number) });
  });
});

describe('normal unloads are not crashes', () => {
  test('an idle unload and a close after successful calls log nothing at level error', async () => {
    const { runtime, extension, records } = setup({ idleTimeoutMs: 100 });
    for (let i = 0; i < 3; i++) await collect(runtime.stream(extension, { prompt: `call ${i}`, cwd: dir }));
    await new Promise((r) => setTimeout(r, 400));
    await collect(runtime.stream(extension, { prompt: 'last', cwd: dir }));
    await runtime.close();
    expect(records.filter((r) => r.level === 'error')).toEqual([]);
  });
});
