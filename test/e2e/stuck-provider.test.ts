// `svc query` against a provider stuck in a blocking native call: the CLI ends promptly with the
// coded error (or 130 on Ctrl-C) and nothing the provider started outlives it.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT, createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { startServe } from '../support/svc-serve.js';

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
const pidsIn = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);

/** The plain-JS limits provider of the runtime tests, packaged as a developer registration. */
function limitsPackage(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'svc-provider-limits-')), 'limits');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  cpSync(join(REPO_ROOT, 'host/test/runtime/fixtures/limits-provider.mjs'), join(dir, 'dist/svc-cli-provider.js'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: '@svc-test/svc-provider-limits',
    version: '1.0.0',
    private: true,
    type: 'module',
    exports: { './svc-cli-provider': './dist/svc-cli-provider.js' },
    files: ['dist'],
    svc: {
      id: 'svc-test.limits',
      publisher: 'svc-test',
      manifestVersion: 1,
      apiVersion: '1.0',
      kind: 'cli-provider',
      display: { name: 'Limits (test)', description: 'Misbehaves on request' },
      command: { default: 'svc-echo-cli', aliases: [], knownPaths: {}, versionArgs: ['--version'] },
      compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=1.0.0 <2.0.0' },
      capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: true }, models: true },
      // A session is a spawn: only a provider granted process:spawn is asked for one (and can block in it).
      permissions: ['process:spawn'],
    },
  }, null, 2));
  return dir;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  scratch = mkdtempSync(join(tmpdir(), 'svc-stuck-'));
  expect((await svc.run(['ext', 'dev', 'add', limitsPackage()])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', 'svc-test.limits', '--yes'])).code).toBe(0);
});
afterAll(() => svc.cleanup());

describe('a provider stuck in a blocking native call', () => {
  test('svc query exits promptly with the coded error and its processes are killed', async () => {
    const pidfile = join(scratch, 'deadline.pids');
    const result = await svc.run(['query', '--provider', 'svc-test.limits', '--timeout', '1', `block ${pidfile}`], { timeoutMs: 15_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error timeout');
    expect(pidsIn(pidfile).length).toBe(3);
    await waitFor(() => pidsIn(pidfile).every((pid) => !alive(pid)), 5_000, 'the provider processes to end');
  });

  test('Ctrl-C ends svc query with 130 and kills what the provider started', async () => {
    const pidfile = join(scratch, 'interrupt.pids');
    const child = svc.start(['query', '--provider', 'svc-test.limits', `block ${pidfile}`]);
    await waitFor(() => pidsIn(pidfile).length === 3, 15_000, 'the blocked processes');
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 15_000);
      child.once('close', (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });
    expect(code).toBe(130);
    expect(child.output.stderr).toContain('error cancelled');
    await waitFor(() => pidsIn(pidfile).every((pid) => !alive(pid)), 5_000, 'the provider processes to end');
  });
});

describe('svc serve with a stuck provider', () => {
  test('SIGTERM stops the service within a bound while a provider blocks in a native call', async () => {
    const repo = join(scratch, 'repo');
    mkdirSync(repo, { recursive: true });
    for (const args of [
      ['connection', 'add', 'limits-serve', '--provider', 'svc-test.limits'],
      ['workspace', 'create', 'stuck'],
      ['project', 'create', 'stuck', '--workspace', 'stuck', '--repo', repo],
    ]) expect((await svc.run(args)).code).toBe(0);
    const created = await svc.run(['task', 'create', 'Blocks in buildSessionProcess', '--project', 'stuck']);
    const taskId = Number(/task (\d+) created/.exec(created.stdout)![1]);
    const server = await startServe(svc, { SVC_RUNTIME_CANCEL_GRACE_MS: '500' });
    const pidfile = join(scratch, 'serve.pids');
    const starter = svc.start(['task', 'start', String(taskId), '--connection', 'limits-serve', '--model', `block:${pidfile}`]);
    await waitFor(() => pidsIn(pidfile).length === 2, 30_000, 'the provider to block inside the service');
    const stopping = Date.now();
    server.child.kill('SIGTERM');
    await server.exited;
    expect(Date.now() - stopping).toBeLessThan(10_000);
    await waitFor(() => pidsIn(pidfile).every((pid) => !alive(pid)), 5_000, 'the provider processes to end');
    starter.kill('SIGKILL');
  }, 90_000);
});

describe('logging', () => {
  test('provider and host log records never reach stdout, and a short svc command leaves them all in svc.log', async () => {
    const result = await svc.run(['query', '--provider', 'svc-test.limits', '--json', 'log-flood 5'], { env: { SVC_LOG_LEVEL: 'debug' } });
    expect(result.code).toBe(0);
    // stdout is the protocol here: only events.
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string })).toEqual([{ type: 'finish', finishReason: 'stop' }]);
    expect(result.stderr).toContain('[info] flood 4');
    const records = readFileSync(join(svc.home, 'logs', 'svc.log'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { message: string; plugin?: string });
    expect(records.filter((r) => r.message.startsWith('flood') && r.plugin === 'svc-test.limits').length).toBe(5);
  });
});

describe('runtime settings', () => {
  test('svc config set runtime.cancelGraceMs sets the grace period a stuck call gets', async () => {
    expect((await svc.run(['config', 'set', 'runtime.cancelGraceMs', '250'])).code).toBe(0);
    try {
      const pidfile = join(scratch, 'grace.pids');
      const result = await svc.run(['query', '--provider', 'svc-test.limits', '--timeout', '1', `block ${pidfile}`], { timeoutMs: 15_000 });
      expect(result.stderr).toContain('did not stop within 250 ms and was abandoned');
    } finally {
      await svc.run(['config', 'unset', 'runtime.cancelGraceMs']);
    }
  });

  test('a runtime setting that is not a positive integer is refused', async () => {
    const result = await svc.run(['config', 'set', 'runtime.maxEventBytes', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('config_value_invalid');
  });
});

describe('secrets in what svc query prints', () => {
  const SECRET = 'sk-test-PLANTED-JSON-SECRET-0123456789';

  test('svc query --json never prints a registered secret, in events or in the error', async () => {
    const add = await svc.run(['connection', 'add', 'limits-secret', '--provider', 'svc-test.limits', '--env', `LIMITS_KEY=${SECRET}`]);
    expect(add.code).toBe(0);
    for (const prompt of [`echo-secret ${SECRET}`, `throw-secret ${SECRET}`]) {
      const result = await svc.run(['query', '--connection', 'limits-secret', '--json', prompt]);
      expect(result.code).toBe(1);
      const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; message?: string });
      expect(lines.find((e) => e.type === 'error')?.message).toContain('[redacted]');
      expect(result.stdout).not.toContain(SECRET);
      expect(result.stderr).not.toContain(SECRET);
    }
  });
});
