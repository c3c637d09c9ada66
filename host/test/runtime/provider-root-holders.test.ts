// A hardened provider's read-only root is set up once per service life, not at each launch: a later
// launch of the same provider (its process ended, a fresh runtime) joins the root set up for the
// first, while each launch keeps its own PID, network and mount namespaces, so what the hardened mode
// guarantees stays. A root that is no longer held is set up again. Real `unshare`, `nsenter`, `mount`
// and provider processes under the permission model (test/security and hardened-isolation.test.ts
// check what the root lets a hostile provider do).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { ExtensionRuntime, isolationEnforcement, PluginStorageStore, probeIsolation, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { holdProviderRoot, readyProviderRoot, releaseProviderRoots } from '../../src/features/extensions/runtime/provider-root-holders.js';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Logger } from '../../src/platform/logging/index.js';
import { processTreeBelow } from '../../../test/support/process-tree.js';
import { waitFor } from '../../../test/support/svc-process.js';

const PROVIDER = fileURLToPath(new URL('./fixtures/limits-provider.mjs', import.meta.url));
const extension: LoadableExtension = {
  id: 'svc-test.held-root',
  entryPath: PROVIDER,
  revision: 'held-root',
  granted: new Set(),
  cli: { command: 'none', version: '1.0.0' },
  isolation: 'process',
};
const probe = probeIsolation();
let dir: string;
let db: Db;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-held-root-'));
  db = openDatabase(join(dir, 'svc.db'));
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Namespaces {
  user: string;
  mnt: string;
  pid: string;
  net: string;
}

/** The node processes among this process's descendants that run the provider bootstrap. */
function providerProcesses(): number[] {
  const node = realpathSync(process.execPath);
  return processTreeBelow(process.pid)
    .filter(({ argv }) => argv[0] === node && argv.some((arg) => arg.endsWith('provider-process.mjs')))
    .map(({ pid }) => pid);
}

const runtimes: ExtensionRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});

/**
 * A fresh runtime's first call (a cold launch), and the namespaces its provider process runs in. The
 * process stays up until the test ends: a namespace's number is reused once nothing holds it.
 */
async function launch(): Promise<Namespaces> {
  const before = providerProcesses();
  const runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
  });
  runtimes.push(runtime);
  const answer = (await runtime.call(extension, 'generate', [{ prompt: 'echo held', cwd: dir }])) as { text: string };
  expect(answer.text).toContain('held');
  const started = providerProcesses().filter((pid) => !before.includes(pid));
  expect(started).toHaveLength(1);
  // Its root is the provider root (a tmpfs of its own), never the host's.
  expect(statSync(`/proc/${started[0]}/root/`).dev).not.toBe(statSync('/').dev);
  expect(existsSync(`/proc/${started[0]}/root${dir}`)).toBe(false);
  const ns = (kind: string) => readlinkSync(`/proc/${started[0]}/ns/${kind}`);
  return { user: ns('user'), mnt: ns('mnt'), pid: ns('pid'), net: ns('net') };
}

test('a later launch joins the root set up for the first, with its own PID, network and mount namespaces', async () => {
  if (!probe.namespaces || !probe.providerRoot) {
    // Where the machine allows no such root, nothing is held and the listing says what is not enforced.
    expect(isolationEnforcement('process', probe, 64).notEnforced).toContain('Unix sockets and socket files not isolated');
    return;
  }
  const first = await launch();
  const second = await launch();
  const host = { user: readlinkSync('/proc/self/ns/user'), mnt: readlinkSync('/proc/self/ns/mnt'), pid: readlinkSync('/proc/self/ns/pid'), net: readlinkSync('/proc/self/ns/net') };
  // Set up once: the same user namespace (the holder's), where the root's mounts were made.
  expect(second.user).toBe(first.user);
  for (const launched of [first, second]) {
    for (const kind of ['user', 'mnt', 'pid', 'net'] as const) expect(launched[kind]).not.toBe(host[kind]);
  }
  // Per launch: no process of another launch to see or signal, no network shared, its own /proc.
  expect(second.pid).not.toBe(first.pid);
  expect(second.net).not.toBe(first.net);
  expect(second.mnt).not.toBe(first.mnt);

  // A root no longer held (the service released it) is set up again for the next launch (the
  // launches above still run, so their namespaces' numbers are not reused).
  releaseProviderRoots();
  const third = await launch();
  expect(third.user).not.toBe(first.user);
  expect((await launch()).user).toBe(third.user);
});

test('at most eight roots are held at once: the one used longest ago is released first', async () => {
  if (!probe.namespaces || !probe.providerRoot) return expect(probe.providerRoot && probe.namespaces).toBe(false);
  releaseProviderRoots();
  const roots = Array.from({ length: 9 }, (_, i) => {
    const packageDir = join(dir, `package-${i}`);
    mkdirSync(packageDir, { recursive: true });
    return [realpathSync(process.execPath), packageDir];
  });
  for (const root of roots.slice(0, 8)) expect(await holdProviderRoot(root, {})).toBe(true);
  const pids = roots.slice(0, 8).map((root) => readyProviderRoot(root));
  expect(pids.every((pid) => pid !== undefined)).toBe(true);
  // The first is used again: the second is now the one used longest ago.
  expect(readyProviderRoot(roots[0]!)).toBe(pids[0]);
  expect(await holdProviderRoot(roots[8]!, {})).toBe(true);
  expect(readyProviderRoot(roots[1]!)).toBeUndefined();
  for (const i of [0, 2, 3, 4, 5, 6, 7, 8]) expect(readyProviderRoot(roots[i]!)).toBeDefined();
  // Each held root is its own: a holder's root shows its package and no other.
  const held = readyProviderRoot(roots[8]!)!;
  expect(existsSync(`/proc/${held}/root${roots[8]![1]}`)).toBe(true);
  expect(existsSync(`/proc/${held}/root${roots[7]![1]}`)).toBe(false);
  releaseProviderRoots();
  expect(readyProviderRoot(roots[8]!)).toBeUndefined();
});

/** The root holders among this process's descendants (each holds its root in `cat`) whose root binds `packageDir`. */
function holdersBinding(packageDir: string): number[] {
  return processTreeBelow(process.pid)
    .filter(({ pid, argv }) => argv[0] === 'cat' && existsSync(`/proc/${pid}/root${packageDir}`))
    .map(({ pid }) => pid);
}

test("a provider's held root is let go when another version's folder replaces it, and when the provider is unloaded (uninstalled)", async () => {
  if (!probe.namespaces || !probe.providerRoot) return expect(probe.providerRoot && probe.namespaces).toBe(false);
  releaseProviderRoots();
  const versions = ['1.0.0', '1.1.0'].map((version) => {
    const folder = join(dir, 'store', version);
    mkdirSync(folder, { recursive: true });
    copyFileSync(PROVIDER, join(folder, 'limits-provider.mjs'));
    return { ...extension, id: 'svc-test.replaced', revision: version, entryPath: join(folder, 'limits-provider.mjs'), packageDir: realpathSync(folder) };
  });
  const runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
  });
  runtimes.push(runtime);
  const [old, next] = versions as [LoadableExtension & { packageDir: string }, LoadableExtension & { packageDir: string }];
  expect(((await runtime.call(old, 'generate', [{ prompt: 'echo old', cwd: dir }])) as { text: string }).text).toContain('old');
  expect(holdersBinding(old.packageDir)).toHaveLength(1);

  expect(((await runtime.call(next, 'generate', [{ prompt: 'echo next', cwd: dir }])) as { text: string }).text).toContain('next');
  await waitFor(() => holdersBinding(old.packageDir).length === 0, 10_000, "the old version's root to be let go");
  expect(holdersBinding(next.packageDir)).toHaveLength(1);
  expect(dirname(next.entryPath)).toBe(next.packageDir);

  await runtime.unload(next.id);
  await waitFor(() => holdersBinding(next.packageDir).length === 0, 10_000, 'the root to be let go once unloaded');
});
