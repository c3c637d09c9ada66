import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let scratch: string;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pidsIn = (file: string) =>
  existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];

beforeAll(async () => {
  svc = createSvcSandbox();
  scratch = mkdtempSync(join(tmpdir(), 'svc-isolation-'));
  for (const name of ['echo', 'rogue']) {
    const dir = copyFixtureProvider(name);
    expect((await svc.run(['ext', 'dev', 'add', dir])).code).toBe(0);
    expect((await svc.run(['ext', 'enable', `svc-test.${name}`, '--yes'])).code).toBe(0);
  }
});
afterAll(() => svc.cleanup());

describe('permission gates', () => {
  test('a provider without process:spawn that tries to spawn is refused and no process starts', async () => {
    const pidfile = join(scratch, 'rogue-spawn.pids');
    const result = await svc.run(['query', '--provider', 'svc-test.rogue', `spawn ${pidfile}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error permission_denied');
    expect(result.stderr).toContain('process:spawn');
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(pidfile)).toBe(false);
  });

  test('the integration files API is closed outside integration calls', async () => {
    const target = join(scratch, 'rogue-file');
    const result = await svc.run(['query', '--provider', 'svc-test.rogue', `files ${target}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error permission_denied');
    expect(existsSync(target)).toBe(false);
  });

  test('a provider without process:spawn is refused a session before it is asked (its shell string never reaches the host)', async () => {
    const result = await svc.run(['session', '--provider', 'svc-test.rogue']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error permission_denied');
  });
});

describe('a misbehaving provider never takes the host down', () => {
  test.each([
    ['throw', 'plugin_error'],
    ['exit', 'worker_crashed'],
    ['reject', 'worker_crashed'],
  ])('%s ends the query with %s', async (prompt, code) => {
    const result = await svc.run(['query', '--provider', 'svc-test.rogue', prompt]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error ${code}`);
  });

  test('a provider that loops forever is stopped at the deadline', async () => {
    const started = Date.now();
    const result = await svc.run(['query', '--provider', 'svc-test.rogue', '--timeout', '1', 'loop']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error timeout');
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('cancellation', () => {
  test('Ctrl-C on a query kills the CLI child process tree', async () => {
    const pidfile = join(scratch, 'hang.pids');
    const child = svc.start(['query', '--provider', 'svc-test.echo', `hang child ${pidfile}`]);
    const pids = await waitFor(() => (pidsIn(pidfile).length >= 2 ? pidsIn(pidfile) : undefined), 15_000, 'the CLI and its child');
    expect(pids.every(alive)).toBe(true);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(130);
    await waitFor(() => pids.every((pid) => !alive(pid)), 5_000, 'the process tree to end');
  });
});

describe('secrets', () => {
  const SECRET = 'sk-test-PLANTED-SECRET-0123456789';

  test('a sensitive config value never appears in output, errors, logs or listings', async () => {
    const add = await svc.run(['connection', 'add', 'echo-secret', '--provider', 'svc-test.echo', '--set', `apiKey=${SECRET}`, '--set', 'greeting=hey']);
    expect(add.code).toBe(0);
    const shown = await svc.run(['connection', 'show', 'echo-secret', '--json']);
    expect(JSON.parse(shown.stdout).config).toEqual({ greeting: 'hey', apiKey: '********' });
    const list = await svc.run(['connection', 'list', '--json']);

    // The adapter reads the key (config:provider), logs it and throws an error that contains it.
    const failing = await svc.run(['query', '--connection', 'echo-secret', 'config'], { env: { SVC_LOG_LEVEL: 'debug' } });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('error plugin_error');
    expect(failing.stderr).toContain('[redacted]');

    // The CLI itself does get it (through the adapter's envPatch): the run works.
    const working = await svc.run(['query', '--connection', 'echo-secret', 'hi']);
    expect(working.stdout).toContain('key-present');

    const log = readFileSync(join(svc.home, 'logs', 'svc.log'), 'utf8');
    expect(log).toContain('config loaded');
    for (const text of [shown.stdout, list.stdout, failing.stdout, failing.stderr, working.stdout, working.stderr, log]) {
      expect(text).not.toContain(SECRET);
    }
  });

  test('an invalid setting is refused with a code that names the key, not the value', async () => {
    const result = await svc.run(['connection', 'add', 'bad', '--provider', 'svc-test.echo', '--set', `nope=${SECRET}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error config_invalid');
    expect(result.stderr).toContain('nope');
    expect(result.stderr).not.toContain(SECRET);
  });
});

test('storage is plugin-scoped and persists across runs', async () => {
  const first = await svc.run(['query', '--provider', 'svc-test.echo', 'count']);
  const second = await svc.run(['query', '--provider', 'svc-test.echo', 'count']);
  expect(first.stdout).toBe('count 1\n');
  expect(second.stdout).toBe('count 2\n');
  writeFileSync(join(scratch, 'noop'), '');
});
