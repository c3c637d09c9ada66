// Node's permission model covers neither Unix sockets nor socket files. A hardened provider holding
// no permissions tries to connect to a Unix socket of the host and exchange data, and to create
// `$SVC_HOME/signals/unattended-1` as a socket (which the ladder hook once took for the service's
// signal). Where this machine gives the provider its own root (an unprivileged mount namespace,
// probed), both fail; elsewhere the listing says they are not isolated. Either way the ladder hook
// does not take a socket for a signal.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase, type Db } from '@svc-org/host/platform/db';
import { ExtensionRuntime, isolationEnforcement, PluginStorageStore, probeIsolation, type LoadableExtension } from '@svc-org/host/features/extensions/runtime';
import { Logger } from '@svc-org/host/platform/logging';

const FIXTURE = fileURLToPath(new URL('../fixtures/providers/hostile', import.meta.url));
const HOOK = fileURLToPath(new URL('../../harness/hooks/ladder-hook.cjs', import.meta.url));
const probe = probeIsolation();
const isolated = probe.namespaces && probe.providerRoot;
let dir: string;
let svcHome: string;
let packageDir: string;
let db: Db;
let runtime: ExtensionRuntime;
let server: Server;
let socketPath: string;
let exchanged = 0;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-unix-')));
  svcHome = join(dir, 'svc-home');
  packageDir = join(svcHome, 'extensions', 'svc-test.hostile');
  cpSync(FIXTURE, packageDir, { recursive: true });
  mkdirSync(join(svcHome, 'signals'), { mode: 0o700 });
  db = openDatabase(join(svcHome, 'svc.db'));
  runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    hostEnv: { ...process.env, SVC_HOME: svcHome },
    limits: { cancelGraceMs: 300 },
  });
  // A socket of the host, as the service's own or another program's would be.
  socketPath = join(svcHome, 'host.sock');
  server = createServer((socket) => socket.on('data', () => {
    exchanged++;
    socket.end('pong');
  }));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});

afterAll(async () => {
  await runtime.close();
  server.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hostile = (): LoadableExtension => ({
  id: 'svc-test.hostile',
  entryPath: join(packageDir, 'svc-cli-provider.js'),
  packageDir,
  revision: 'hostile',
  granted: new Set(),
  cli: { command: 'svc-echo-cli', version: '1.0.0' },
  isolation: 'process',
});

const attempt = async (prompt: string) => ((await runtime.call(hostile(), 'generate', [{ prompt, cwd: dir }])) as { text: string }).text;

test('connects to no Unix socket of the host where it has its own root, and the listing says which', async () => {
  const outcome = await attempt(`unix-connect ${socketPath}`);
  const listed = isolationEnforcement('process', probe, 256);
  if (isolated) {
    expect(outcome).not.toBe('ALLOWED');
    expect(exchanged).toBe(0);
    expect(listed.enforces).toContain('no Unix sockets and no socket files (own read-only root)');
  } else {
    expect(outcome).toBe('ALLOWED');
    expect(listed.notEnforced).toContain('Unix sockets and socket files not isolated');
  }
});

test('creates no socket file: not the ladder hook\'s signal, not in its own package', async () => {
  const signal = join(svcHome, 'signals', 'unattended-1');
  for (const path of [signal, join(packageDir, 'made.sock')]) {
    const outcome = await attempt(`unix-listen ${path}`);
    if (isolated) {
      expect(outcome, path).not.toBe('ALLOWED');
      expect(existsSync(path), path).toBe(false);
    } else {
      // Said, not hidden: the listing names the gap.
      expect(outcome, path).toBe('ALLOWED');
      expect(isolationEnforcement('process', probe, 256).notEnforced).toContain('Unix sockets and socket files not isolated');
      rmSync(path, { force: true });
    }
  }
});

test('the ladder hook does not take a socket file for the unattended signal', async () => {
  const signal = join(svcHome, 'signals', 'unattended-1');
  const planted = createServer();
  await new Promise<void>((resolve) => planted.listen(signal, resolve));
  try {
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: {} });
    const result = spawnSync(process.execPath, [HOOK], { input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', SVC_TASK_ID: '1', SVC_SIGNAL_DIR: join(svcHome, 'signals') } });
    expect(result.status).toBe(0);
    // Silence is "allow": the task is still taken as watched.
    expect(result.stdout).toBe('');
  } finally {
    await new Promise<void>((resolve) => planted.close(() => resolve()));
  }
});
