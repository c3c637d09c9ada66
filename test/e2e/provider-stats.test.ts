// Running-provider statistics through the real `svc` executable: real calls of a well-behaved, a
// slow (deadline), a failing (with a secret in its error) and a crashing stand-in provider, then
// `svc ext stats` and `svc ext show` read back what the runtime counted.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

const SECRET = 'sk-test-STATS-SECRET-0123456789';
let svc: SvcSandbox;

interface Stats {
  id: string;
  state: string;
  isolation: string;
  quarantined: boolean;
  activation: { count: number; lastMs: number } | null;
  methods: Array<{ method: string; calls: number; errors: number; cancelled: number; timeouts: number; crashes: number; p50Ms: number; p95Ms: number; maxMs: number }>;
  errorsByCode: Record<string, number>;
  deadlines: number;
  crashes: number;
  memory: { heapUsedBytes: number; rssBytes: number | null } | null;
  recentErrors: Array<{ at: string; method: string; code: string; message: string }>;
  permissions: Array<{ permission: string; calls: number; lastAt: string | null; neverUsed: boolean }>;
}

async function stats(id: string): Promise<Stats> {
  const result = await svc.run(['ext', 'stats', id, '--json']);
  expect(result.code, result.stderr).toBe(0);
  const { items } = JSON.parse(result.stdout) as { items: Stats[] };
  expect(items.map((item) => item.id)).toEqual([id]);
  return items[0]!;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  for (const name of ['echo', 'hostile', 'rogue']) {
    expect((await svc.run(['ext', 'dev', 'add', copyFixtureProvider(name)])).code).toBe(0);
  }
  expect((await svc.run(['ext', 'enable', 'svc-test.echo', '--yes'])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', 'svc-test.rogue', '--yes'])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', 'svc-test.hostile', '--yes', '--isolation', 'process'])).code).toBe(0);
}, 60_000);
afterAll(() => svc.cleanup());

test('granted permissions no call has used are marked by svc ext show and svc ext stats', async () => {
  const shown = await svc.run(['ext', 'show', 'svc-test.echo']);
  expect(shown.stdout).toContain('never used (last 30 days): config:provider, process:spawn');
  const before = await stats('svc-test.echo');
  expect(before.methods).toEqual([]);
  expect(before.activation).toBeNull();
  expect(before.permissions).toEqual([
    { permission: 'config:provider', calls: 0, lastAt: null, neverUsed: true },
    { permission: 'process:spawn', calls: 0, lastAt: null, neverUsed: true },
  ]);
});

test('calls, a deadline, a redacted error and a crash are counted per provider and method', async () => {
  for (const word of ['one', 'two', 'three']) expect((await svc.run(['query', '--provider', 'svc-test.echo', word])).code).toBe(0);
  // The slow one: the stand-in CLI never answers and the call hits its 3 s deadline (well above
  // what a quick call takes even on a loaded machine).
  const slow = await svc.run(['query', '--provider', 'svc-test.echo', '--timeout', '3', 'hang']);
  expect(slow.code).toBe(1);
  expect(slow.stderr).toContain('timeout');
  expect((await svc.run(['connection', 'add', 'echo-secret', '--provider', 'svc-test.echo', '--set', `apiKey=${SECRET}`])).code).toBe(0);
  const failing = await svc.run(['query', '--connection', 'echo-secret', 'config']);
  expect(failing.code).toBe(1);
  expect((await svc.run(['models', '--provider', 'svc-test.echo'])).code).toBe(0);

  const echo = await stats('svc-test.echo');
  expect(echo).toMatchObject({ state: 'enabled', isolation: 'worker', quarantined: false, deadlines: 1, crashes: 0 });
  const stream = echo.methods.find((m) => m.method === 'stream')!;
  expect(stream).toMatchObject({ calls: 5, errors: 2, timeouts: 1, crashes: 0, cancelled: 0 });
  // The slow call is the slowest: its latency is the maximum and sets the 95th percentile.
  expect(stream.maxMs).toBeGreaterThanOrEqual(3000);
  expect(stream.p95Ms).toBeGreaterThanOrEqual(3000);
  expect(stream.p50Ms).toBeLessThan(stream.maxMs);
  expect(echo.methods.find((m) => m.method === 'models')).toMatchObject({ calls: 1, errors: 0 });
  expect(echo.errorsByCode.timeout).toBe(1);
  expect(Object.values(echo.errorsByCode).reduce((a, b) => a + b, 0)).toBe(2);
  // Every `svc query` is its own process: each loaded the provider cold.
  expect(echo.activation!.count).toBeGreaterThanOrEqual(5);
  expect(echo.activation!.lastMs).toBeGreaterThan(0);
  expect(echo.memory!.heapUsedBytes).toBeGreaterThan(1024 * 1024);
  expect(echo.memory!.rssBytes).toBeNull();
  expect(echo.recentErrors.map((e) => e.code)).toContain('timeout');
  const refused = echo.recentErrors.find((e) => e.message.includes('refusing to run with key'))!;
  expect(refused.message).toContain('[redacted]');
  expect(Date.parse(refused.at)).toBeGreaterThan(Date.now() - 120_000);
  const spawn = echo.permissions.find((p) => p.permission === 'process:spawn')!;
  expect(spawn.neverUsed).toBe(false);
  expect(spawn.calls).toBeGreaterThanOrEqual(4);
  expect(echo.permissions.find((p) => p.permission === 'config:provider')).toMatchObject({ neverUsed: false });

  const text = await svc.run(['ext', 'stats', 'svc-test.echo']);
  expect(text.stdout).not.toContain(SECRET);
  expect(text.stdout).toMatch(/stream\s+5\s+2\s+0\s+1\s+0/);
  expect(text.stdout).toContain('deadlines hit 1');
  expect((await svc.run(['ext', 'show', 'svc-test.echo'])).stdout).not.toContain('never used');
  const json = await svc.run(['ext', 'stats', '--json']);
  expect(json.stdout).not.toContain(SECRET);
}, 180_000);

test('a hardened provider reports its own process memory; its crashes are counted and a crash loop shows as quarantined', async () => {
  expect((await svc.run(['query', '--provider', 'svc-test.hostile', 'echo hi'])).code).toBe(0);
  for (let crash = 1; crash <= 3; crash++) {
    const result = await svc.run(['query', '--provider', 'svc-test.hostile', 'crash']);
    expect(result.stderr).toContain('worker_crashed');
  }
  const hostile = await stats('svc-test.hostile');
  expect(hostile).toMatchObject({ isolation: 'process', crashes: 3, quarantined: true, state: 'broken', errorsByCode: { worker_crashed: 3 }, permissions: [] });
  expect(hostile.methods.find((m) => m.method === 'generate')).toMatchObject({ calls: 4, errors: 3, crashes: 3 });
  expect(hostile.memory!.rssBytes).toBeGreaterThan(1024 * 1024);
  expect(hostile.recentErrors).toHaveLength(3);

  // A provider whose one permission no Host Context call uses is marked so.
  expect((await svc.run(['query', '--provider', 'svc-test.rogue', 'throw'])).code).toBe(1);
  const rogue = await stats('svc-test.rogue');
  expect(rogue.permissions).toEqual([{ permission: 'network:provider', calls: 0, lastAt: null, neverUsed: true }]);
  expect(rogue.methods.find((m) => m.method === 'stream')).toMatchObject({ calls: 1, errors: 1 });
}, 180_000);

test('an unknown provider id is refused with its code', async () => {
  const result = await svc.run(['ext', 'stats', 'svc-test.nothing']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('extension_not_found');
});
