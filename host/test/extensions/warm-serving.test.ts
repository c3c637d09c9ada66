// `svc serve` starts a worker thread for each provider that serves calls as it starts: bounded (at
// most the limit, none for a disabled provider), released like any idle thread when no call comes,
// and the first call runs on that thread. Real host services, worker threads and fixture providers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { WARM_AT_START_LIMIT } from '../../src/features/extensions/extension-service.js';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { FIXTURE_CLIS } from '../../../test/support/svc-process.js';

let services: HostServices;
let home: string;

async function open(idleTimeoutMs: number): Promise<void> {
  services = await openHostServices({
    env: { ...process.env, SVC_HOME: home, PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}` },
    builtins: false,
    limits: { idleTimeoutMs },
  });
  for (const name of ['echo', 'rogue']) {
    const { record } = await services.extensions.devAdd(copyFixtureProvider(name));
    await services.extensions.enable(record.id, async () => true);
  }
  // Registered but never enabled: serves no call, so no thread is started for it.
  await services.extensions.devAdd(copyFixtureProvider('hostile'));
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-warm-serving-'));
});
afterEach(async () => {
  await services?.close();
  rmSync(home, { recursive: true, force: true });
});

const threads = () => ({
  echo: services.runtime.threadCount('svc-test.echo'),
  rogue: services.runtime.threadCount('svc-test.rogue'),
  hostile: services.runtime.threadCount('svc-test.hostile'),
});

test('one thread for each enabled provider, none for a disabled one, and the first call runs on it', async () => {
  await open(60_000);
  expect(WARM_AT_START_LIMIT).toBeGreaterThanOrEqual(2);
  expect(services.extensions.warmServing().sort()).toEqual(['svc-test.echo', 'svc-test.rogue']);
  await expect.poll(threads, { timeout: 20_000 }).toEqual({ echo: 1, rogue: 1, hostile: 0 });
  // A second start adds no thread.
  services.extensions.warmServing();
  const target = await services.extensions.prepare('svc-test.echo');
  const models = await services.extensions.models(target);
  expect(Array.isArray(models)).toBe(true);
  expect(threads()).toEqual({ echo: 1, rogue: 1, hostile: 0 });
});

test('no more threads than the limit, and a thread no call comes for is released when idle', async () => {
  await open(200);
  const started = services.extensions.warmServing(1);
  expect(started).toHaveLength(1);
  const [id] = started;
  await expect.poll(() => services.runtime.threadCount(id!), { timeout: 20_000 }).toBe(1);
  const other = id === 'svc-test.echo' ? 'svc-test.rogue' : 'svc-test.echo';
  expect(services.runtime.threadCount(other)).toBe(0);
  await expect.poll(() => services.runtime.threadCount(id!), { timeout: 20_000 }).toBe(0);
});
