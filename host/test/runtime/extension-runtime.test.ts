import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { collectCliQueryStream, type CliStreamEvent } from '@svc-org/ai-sdk';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { resolveRuntimeLimits } from '../../src/features/extensions/runtime/index.js';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { FIXTURE_CLIS } from '../../../test/support/svc-process.js';

let services: HostServices;
let home: string;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function events(stream: AsyncIterable<CliStreamEvent>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-runtime-'));
  services = await openHostServices({
    env: {
      ...process.env,
      SVC_HOME: home,
      PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}`,
      ANTHROPIC_API_KEY: 'planted-host-secret',
      SVC_EXTENSION_CATALOG_TOKEN: 'planted-host-secret',
      // These tests crash the rogue provider on purpose, one way each; the crash-loop quarantine
      // that would follow the third has its own test (test/e2e/crash-quarantine.test.ts).
      SVC_RUNTIME_CRASH_LOOP_CRASHES: '1000',
    },
    builtins: false,
    limits: { cancelGraceMs: 200, maxOldGenerationSizeMb: 64 },
  });
  for (const name of ['echo', 'rogue']) {
    const { record } = await services.extensions.devAdd(copyFixtureProvider(name));
    await services.extensions.enable(record.id, async () => true);
  }
});
afterAll(async () => {
  await services.close();
  rmSync(home, { recursive: true, force: true });
});

const query = async (id: string, prompt: string) => {
  // Rogue calls get a short deadline: one of them loops forever.
  const target = await services.extensions.prepare(id, id === 'svc-test.rogue' ? { timeoutMs: 1500 } : {});
  return events(services.extensions.stream(target, { prompt, cwd: home }));
};

describe('one host survives every kind of provider failure', () => {
  test.each(['throw', 'exit', 'reject', 'loop'])('after "%s" the next call on a fresh worker works', async (failure) => {
    const failed = await query('svc-test.rogue', failure);
    expect(failed.find((e) => e.type === 'error')).toBeDefined();
    expect(failed.at(-1)).toMatchObject({ type: 'finish' });
    const ok = await query('svc-test.rogue', 'hello');
    expect(ok).toEqual([
      { type: 'text', text: 'hello from rogue' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('the loop is ended by the host-owned deadline with code timeout', async () => {
    const failed = await query('svc-test.rogue', 'loop');
    expect(failed).toEqual([
      expect.objectContaining({ type: 'error', code: 'timeout' }),
      { type: 'finish', finishReason: 'error' },
    ]);
  });
});

describe('calls', () => {
  test('generate returns the canonical result', async () => {
    const target = await services.extensions.prepare('svc-test.echo');
    const result = await services.extensions.generate(target, { prompt: 'a b', cwd: home });
    expect(result).toMatchObject({ text: 'hello\na\nb\n', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 1 } });
  });

  test('a stream equals what collectCliQueryStream aggregates', async () => {
    const streamed = await query('svc-test.echo', 'x y');
    const collected = await collectCliQueryStream(streamed);
    expect(collected.text).toBe('hello\nx\ny\n');
    expect(collected.sessionId).toMatch(/^echo-\d+$/);
  });

  test('events cross the thread line in order, with backpressure, without loss', async () => {
    const got = await query('svc-test.echo', 'events 50000');
    expect(got.length).toBe(50001);
    expect(got.filter((e) => e.type === 'text').length).toBe(50000);
  });

  test('a large CLI output arrives whole through the flow-controlled pipe', async () => {
    const got = await query('svc-test.echo', 'lines 200000');
    expect(got.find((e) => e.type === 'error')).toBeUndefined();
    const text = got.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('');
    expect(text.split('\n').length - 1).toBe(200000);
    expect(text.endsWith('line 199999\n')).toBe(true);
  });

  test('breaking out of a stream cancels the call and kills its process', async () => {
    const target = await services.extensions.prepare('svc-test.echo');
    let pid = 0;
    target.callOptions.onSpawn = (spawned) => (pid = spawned);
    for await (const event of services.extensions.stream(target, { prompt: 'hang', cwd: home })) {
      if (event.type === 'session') break;
    }
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    }, { timeout: 5000 }).toBe(false);
  });

  test('an idle extension can be unloaded and loads again on demand', async () => {
    await services.runtime.unload('svc-test.echo');
    expect(services.runtime.threadCount('svc-test.echo')).toBe(0);
    const again = await query('svc-test.echo', 'z');
    expect(again.some((e) => e.type === 'text')).toBe(true);
  });
});

describe('what a provider can see and keep', () => {
  test('the worker environment is scrubbed of keys and host secrets', async () => {
    const got = await query('svc-test.rogue', 'env');
    const env = JSON.parse((got[0] as { text: string }).text) as Record<string, string>;
    expect(env.PATH).toBeDefined();
    // The one SVC_ name is the thread tag the host finds the provider's own processes by.
    for (const key of Object.keys(env).filter((k) => k !== 'SVC_PROVIDER_THREAD')) expect(key).not.toMatch(/KEY|TOKEN|SECRET|^SVC_/);
    expect(env.SVC_PROVIDER_THREAD).toMatch(/^\d+-[0-9a-f]{8}\.\d+\.\d+$/);
    expect(Object.values(env).join('\n')).not.toContain('planted-host-secret');
  });

  test('a provider that exhausts its heap limit is stopped and the host goes on', async () => {
    const got = await query('svc-test.rogue', 'oom');
    expect(got.find((e) => e.type === 'error')).toMatchObject({ code: expect.stringMatching(/worker_crashed|timeout/) });
    expect((await query('svc-test.rogue', 'hello'))[0]).toEqual({ type: 'text', text: 'hello from rogue' });
  });

  test('when a worker dies, the processes it started are killed', async () => {
    const pidfile = join(home, 'crash.pids');
    const got = await query('svc-test.echo', `crash ${pidfile}`);
    expect(got.find((e) => e.type === 'error')).toMatchObject({ code: 'worker_crashed' });
    const pids = readFileSync(pidfile, 'utf8').trim().split('\n').map(Number);
    expect(pids.length).toBe(2);
    await expect.poll(() => pids.filter(alive).length, { timeout: 5000 }).toBe(0);
  });

  test('a call past its deadline has its process tree killed', async () => {
    const pidfile = join(home, 'deadline.pids');
    const target = await services.extensions.prepare('svc-test.echo', { timeoutMs: 3000 });
    const got = await events(services.extensions.stream(target, { prompt: `hang child ${pidfile}`, cwd: home }));
    expect(got.find((e) => e.type === 'error')).toMatchObject({ code: 'timeout' });
    const pids = readFileSync(pidfile, 'utf8').trim().split('\n').map(Number);
    await expect.poll(() => pids.filter(alive).length, { timeout: 5000 }).toBe(0);
  });
});

describe('runtime options', () => {
  test('each invalid option is named with its rule', () => {
    expect(() => resolveRuntimeLimits({ maxThreads: 0 })).toThrow('options.maxThreads must be a positive integer');
    expect(() => resolveRuntimeLimits({ idleTimeoutMs: 1.5 })).toThrow('options.idleTimeoutMs must be a positive integer');
    expect(() => resolveRuntimeLimits({ callTimeoutMs: { query: -1 } })).toThrow('options.callTimeoutMs.query must be a positive integer');
  });
});
