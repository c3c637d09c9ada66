// The hardened mode against a hostile provider (test/fixtures/providers/hostile), through real
// child processes under Node's permission model and, where this machine allows, real namespaces.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { ExtensionRuntime, isolationEnforcement, PluginStorageStore, probeIsolation, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { Logger } from '../../src/platform/logging/index.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/providers/hostile', import.meta.url));
const probe = probeIsolation();
let dir: string;
let home: string;
let svcHome: string;
let packageDir: string;
let otherExtension: string;
let db: Db;
let runtime: ExtensionRuntime;
let server: Server;
let serverPort: number;

beforeAll(async () => {
  // By its real path: that is how the provider process sees its own package (a symlinked temp folder is not readable to it).
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-hardened-')));
  // The service's home, as an installed service has it: token, database, extensions.
  svcHome = join(dir, 'svc-home');
  packageDir = join(svcHome, 'extensions', 'svc-test.hostile');
  otherExtension = join(svcHome, 'extensions', 'svc-test.other');
  cpSync(FIXTURE, packageDir, { recursive: true });
  mkdirSync(otherExtension, { recursive: true });
  writeFileSync(join(otherExtension, 'index.js'), 'export const untouched = true;\n');
  writeFileSync(join(svcHome, 'token'), 'svc-install-token-secret\n', { mode: 0o600 });
  // A real native object inside the provider's own package: readable, but not loadable.
  const pty = createRequire(import.meta.url).resolve('@lydell/node-pty-linux-x64/pty.node', { paths: [createRequire(import.meta.url).resolve('node-pty')] });
  cpSync(pty, join(packageDir, 'native.node'));
  home = join(dir, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n', { mode: 0o600 });
  db = openDatabase(join(svcHome, 'svc.db'));
  runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: home, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    hostEnv: { ...process.env, HOME: home, SVC_HOME: svcHome, SVC_SECRET_FOR_TEST: 'leak-me' },
    limits: { cancelGraceMs: 300, maxOldGenerationSizeMb: 64 },
  });
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverPort = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await runtime.close();
  server.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hostile = (granted: string[] = []): LoadableExtension => ({
  id: 'svc-test.hostile',
  entryPath: join(packageDir, 'svc-cli-provider.js'),
  packageDir,
  revision: `hostile-${granted.join(',')}`,
  granted: new Set(granted),
  cli: { command: 'svc-echo-cli', version: '1.0.0' },
  isolation: 'process',
});

const attempt = async (prompt: string, extension = hostile()) =>
  ((await runtime.call(extension, 'generate', [{ prompt, cwd: dir }])) as { text: string }).text;

describe('a hostile provider in hardened mode, holding no permissions', () => {
  test('cannot start a child process', async () => {
    expect(await attempt('child_process')).toBe('ERR_ACCESS_DENIED');
  });

  test('cannot reach the internal bindings (process.binding)', async () => {
    expect(await attempt('binding')).toBe('ERR_ACCESS_DENIED');
  });

  test('cannot read the install token, the database, ~/.ssh or its own environment', async () => {
    for (const path of [join(svcHome, 'token'), join(svcHome, 'svc.db'), join(home, '.ssh', 'id_ed25519'), '/proc/self/environ']) {
      expect(await attempt(`read ${path}`), path).toBe('ERR_ACCESS_DENIED');
    }
  });

  test('sees no inherited environment: no home, no SVC_* variable, no secret', async () => {
    const keys = (await attempt('env')).split(' ').filter(Boolean);
    // Node adds its IPC channel's descriptor and serialization; the rest is the locale allowlist.
    for (const key of keys) expect(['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']).toContain(key);
    expect(keys).not.toContain('SVC_SECRET_FOR_TEST');
  });

  test('reads its own package', async () => {
    expect(await attempt(`read ${join(packageDir, 'package.json')}`)).toBe('ALLOWED');
  });

  test('cannot write anywhere: outside its directory, inside it, or into another extension', async () => {
    const target = join(otherExtension, 'index.js');
    for (const path of [join(dir, 'dropped.txt'), join(packageDir, 'dropped.txt'), target]) {
      expect(await attempt(`write ${path}`), path).toBe('ERR_ACCESS_DENIED');
    }
    expect(readFileSync(target, 'utf8')).toBe('export const untouched = true;\n');
  });

  test('cannot start a worker thread or load a native object', async () => {
    expect(await attempt('worker')).toBe('ERR_ACCESS_DENIED');
    expect(await attempt(`native ${join(packageDir, 'native.node')}`)).toBe('ERR_DLOPEN_DISABLED');
  });

  test('opens no socket where the network is isolated, and says so where it is not', async () => {
    const outcome = await attempt(`socket ${serverPort}`);
    if (probe.namespaces) expect(outcome).not.toBe('ALLOWED');
    else {
      expect(outcome).toBe('ALLOWED');
      expect(isolationEnforcement('process', probe, 64).notEnforced).toContain('network not isolated');
    }
  });

  test('cannot signal another process where signals are isolated, and says so where they are not', async () => {
    const victim = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const outcome = await attempt(`signal ${victim.pid}`);
      if (probe.namespaces) {
        expect(outcome).toBe('ESRCH');
        expect(victim.exitCode).toBeNull();
        expect(victim.signalCode).toBeNull();
      } else {
        expect(isolationEnforcement('process', probe, 64).notEnforced).toContain('signals not isolated (own process group only)');
      }
    } finally {
      victim.kill('SIGKILL');
    }
  });

  test('a blocking call ends at the deadline, the process killed, the host unaffected', async () => {
    const started = Date.now();
    await expect(runtime.call(hostile(), 'generate', [{ prompt: 'block', cwd: dir }], { timeoutMs: 500 })).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await attempt('echo alive')).toBe('alive');
  });

  test('a memory bomb ends in a coded failure within its limit, the host unaffected', async () => {
    const before = process.memoryUsage().rss;
    await expect(runtime.call(hostile(), 'generate', [{ prompt: 'bomb', cwd: dir }], { timeoutMs: 20_000 })).rejects.toMatchObject({
      code: 'worker_crashed',
      message: expect.stringContaining('out of memory'),
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
    expect(await attempt('echo alive')).toBe('alive');
  });
});

test('a provider registered through a symlinked folder loads (as on macOS, where /var is a symlink)', async () => {
  const linked = join(dir, 'linked-extensions');
  symlinkSync(join(svcHome, 'extensions'), linked);
  const viaLink = { ...hostile(), revision: 'via-link', packageDir: join(linked, 'svc-test.hostile'), entryPath: join(linked, 'svc-test.hostile', 'svc-cli-provider.js') };
  expect(await attempt('echo linked', viaLink)).toBe('linked');
});

describe('the same provider with permissions, through the Host Context', () => {
  test('runs a process the host spawns and uses its storage', async () => {
    const granted = hostile(['process:spawn']);
    expect(await attempt(`host-run ${process.execPath}`, granted)).toBe(process.version);
    expect(await attempt('host-storage kept', granted)).toBe('kept');
  });

  test('without process:spawn the host refuses the spawn', async () => {
    await expect(attempt(`host-run ${process.execPath}`)).rejects.toMatchObject({ code: 'permission_denied' });
  });
});
