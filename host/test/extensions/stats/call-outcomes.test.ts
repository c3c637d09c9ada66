// Every way an adapter call can end is counted in the provider's statistics, through the real
// runtime: a returned call, a throw, a stream that ends in an error event, a cancel, a deadline and
// a crash — and a session start counts as a use of process:spawn.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { openHostServices, type HostServices } from '../../../src/host-services.js';
import { copyFixtureProvider } from '../../../../test/support/copy-fixture-provider.js';
import { FIXTURE_CLIS } from '../../../../test/support/svc-process.js';
import { runInProcess } from '../../../../test/support/in-process-cli.js';

let services: HostServices;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-call-outcomes-'));
  services = await openHostServices({
    env: { ...process.env, SVC_HOME: home, PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}`, SVC_RUNTIME_CRASH_LOOP_CRASHES: '1000' },
    builtins: false,
    limits: { cancelGraceMs: 200 },
  });
  for (const name of ['echo', 'rogue']) {
    const { record } = await services.extensions.devAdd(copyFixtureProvider(name));
    await services.extensions.enable(record.id, async () => true);
  }
}, 60_000);
afterAll(async () => {
  await services.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs one query to its end (or until `stopAt` says to abort) and returns the stream's statistics after it. */
async function outcomeOf(id: string, prompt: string, options: { timeoutMs?: number; abortWhen?: (event: CliStreamEvent) => boolean } = {}) {
  const before = streamStats(id);
  const controller = new AbortController();
  const target = await services.extensions.prepare(id, { signal: controller.signal, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
  const events: CliStreamEvent[] = [];
  for await (const event of services.extensions.stream(target, { prompt, cwd: home })) {
    events.push(event);
    if (options.abortWhen?.(event)) controller.abort();
  }
  const after = streamStats(id);
  const delta = Object.fromEntries(Object.entries(after.counts).map(([key, value]) => [key, value - (before.counts[key as keyof typeof before.counts] ?? 0)]));
  return { events, delta, errorsByCode: after.errorsByCode };
}

function streamStats(id: string) {
  services.statsRecorder.flush();
  const stats = services.stats.read(id);
  const stream = stats.methods.find((m) => m.method === 'stream');
  return {
    counts: { calls: stream?.calls ?? 0, errors: stream?.errors ?? 0, cancelled: stream?.cancelled ?? 0, timeouts: stream?.timeouts ?? 0, crashes: stream?.crashes ?? 0 },
    errorsByCode: stats.errorsByCode,
  };
}

test('a call that returned is counted as a call and nothing else', async () => {
  const { delta } = await outcomeOf('svc-test.echo', 'hello');
  expect(delta).toEqual({ calls: 1, errors: 0, cancelled: 0, timeouts: 0, crashes: 0 });
});

test('a call that threw is counted as an error with the thrown code', async () => {
  const { events, delta, errorsByCode } = await outcomeOf('svc-test.echo', 'refuse');
  expect(events.at(-2)).toMatchObject({ type: 'error', code: 'invalid_request' });
  expect(delta).toEqual({ calls: 1, errors: 1, cancelled: 0, timeouts: 0, crashes: 0 });
  expect(errorsByCode.invalid_request).toBeGreaterThanOrEqual(1);
});

test('a stream that ended in an error event is counted as an error with the event code', async () => {
  const { events, delta, errorsByCode } = await outcomeOf('svc-test.echo', 'api-error');
  expect(events.map((e) => e.type)).toEqual(['text', 'error', 'finish']);
  expect(delta).toEqual({ calls: 1, errors: 1, cancelled: 0, timeouts: 0, crashes: 0 });
  expect(errorsByCode.cli_api_error).toBe(1);
});

test('a call its caller cancelled is counted as cancelled, not as an error', async () => {
  const { events, delta } = await outcomeOf('svc-test.echo', 'hang', { abortWhen: (event) => event.type === 'session' });
  expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'cancelled' });
  expect(delta).toEqual({ calls: 1, errors: 0, cancelled: 1, timeouts: 0, crashes: 0 });
});

test('a call past its deadline is counted as an error and a deadline', async () => {
  const { events, delta } = await outcomeOf('svc-test.echo', 'hang', { timeoutMs: 1000 });
  expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'timeout' });
  expect(delta).toEqual({ calls: 1, errors: 1, cancelled: 0, timeouts: 1, crashes: 0 });
});

test('a call that crashed its worker is counted as an error and a crash', async () => {
  const { events, delta } = await outcomeOf('svc-test.rogue', 'exit');
  expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'worker_crashed' });
  expect(delta).toEqual({ calls: 1, errors: 1, cancelled: 0, timeouts: 0, crashes: 1 });
});

test('a session start counts as a use of process:spawn', async () => {
  const spawnUses = () => {
    services.statsRecorder.flush();
    return services.stats.read('svc-test.echo').permissionUse.find((p) => p.permission === 'process:spawn')?.calls ?? 0;
  };
  const before = spawnUses();
  const target = await services.extensions.prepare('svc-test.echo');
  await services.extensions.buildSessionProcess(target, { mode: 'fresh', cwd: home });
  expect(spawnUses()).toBe(before + 1);
});

test('svc ext stats says its figures cover a 30-day window, not the time since the provider was enabled', async () => {
  services.statsRecorder.flush();
  const shown = await runInProcess(home, 'ext', 'stats', 'svc-test.echo');
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout.split('\n')[0]).toMatch(/^svc-test\.echo 1\.0\.0 {2}enabled {2}worker {2}last 30 days \(since \d{4}-\d\d-\d\d\)$/);
});
