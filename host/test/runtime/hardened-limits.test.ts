// A hardened provider process's address space limit (RLIMIT_AS), read from the host in
// /proc/<pid>/limits of the real provider process: the launch sets it before Node starts.
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { ExtensionRuntime, PluginStorageStore, probeIsolation, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { Logger } from '../../src/platform/logging/index.js';

const ENTRY = fileURLToPath(new URL('./fixtures/limits-provider.mjs', import.meta.url));
let dir: string;
let db: Db;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-limits-')));
  db = openDatabase(join(dir, 'svc.db'));
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** This process's descendants whose command line reads `marker`. */
function descendantsWith(marker: string): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // it ended while listed
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(child);
      walk(child);
    }
  };
  walk(process.pid);
  return found;
}

test.runIf(process.platform === 'linux' && probeIsolation().addressSpaceLimit)('a hardened provider process runs under an address space limit of its heap limit and 2 GiB, soft and hard', async () => {
  const runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    limits: { maxOldGenerationSizeMb: 96 },
  });
  const extension: LoadableExtension = { id: 'svc-test.limits', entryPath: ENTRY, packageDir: dirname(ENTRY), revision: 'limits', granted: new Set(), cli: { command: 'none', version: '1.0.0' }, isolation: 'process' };
  try {
    expect(((await runtime.call(extension, 'generate', [{ prompt: 'wait 0', cwd: dir }])) as { text: string }).text).toBe('waited');
    const [provider] = descendantsWith('--max-old-space-size=96').filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(realpathSync(process.execPath)));
    expect(provider).toBeDefined();
    const limit = /^Max address space\s+(\d+)\s+(\d+)\s+bytes/m.exec(readFileSync(`/proc/${provider}/limits`, 'utf8'));
    expect(limit?.slice(1)).toEqual([String((96 + 2048) * 1024 * 1024), String((96 + 2048) * 1024 * 1024)]);
  } finally {
    await runtime.close();
  }
});
