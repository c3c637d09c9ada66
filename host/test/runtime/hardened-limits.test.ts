// A hardened provider process's address space limit (RLIMIT_AS), read from the host in
// /proc/<pid>/limits of the real provider process: the launch sets it before Node starts.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { ExtensionRuntime, PluginStorageStore, probeIsolation, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { Logger } from '../../src/platform/logging/index.js';
import { processTreeBelow } from '../../../test/support/process-tree.js';

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

/** The pid of the provider's node (below its wrappers), found by the heap limit its test gave it. */
function providerProcess(heapMb: number): number | undefined {
  const node = realpathSync(process.execPath);
  return processTreeBelow(process.pid).find(({ argv }) => argv[0] === node && argv.includes(`--max-old-space-size=${heapMb}`))?.pid;
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
    const provider = providerProcess(96);
    expect(provider).toBeDefined();
    const limit = /^Max address space\s+(\d+)\s+(\d+)\s+bytes/m.exec(readFileSync(`/proc/${provider}/limits`, 'utf8'));
    expect(limit?.slice(1)).toEqual([String((96 + 2048) * 1024 * 1024), String((96 + 2048) * 1024 * 1024)]);
  } finally {
    await runtime.close();
  }
});

// Its provider does not see the setting: hardened-isolation.test.ts lists the provider's whole environment.
test.runIf(process.platform === 'linux')("a hardened provider's node starts with glibc's allocator set for huge pages, and its root holds the settings glibc reads", async () => {
  const runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    limits: { maxOldGenerationSizeMb: 97 },
  });
  const extension: LoadableExtension = { id: 'svc-test.allocator', entryPath: ENTRY, packageDir: dirname(ENTRY), revision: 'allocator', granted: new Set(), cli: { command: 'none', version: '1.0.0' }, isolation: 'process' };
  try {
    expect(((await runtime.call(extension, 'generate', [{ prompt: 'wait 0', cwd: dir }])) as { text: string }).text).toBe('waited');
    const provider = providerProcess(97);
    expect(provider).toBeDefined();
    // glibc splits the setting in place once it has read it (a NUL where each `:` was).
    expect(readFileSync(`/proc/${provider}/environ`, 'utf8')).toMatch(/(^|\0)GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1[:\0]glibc\.malloc\.mmap_threshold=33554432\0/);
    // What glibc reads to decide on huge pages is there in the provider's own root too.
    const settings = '/sys/kernel/mm/transparent_hugepage/enabled';
    if (existsSync(settings)) expect(readFileSync(`/proc/${provider}/root${settings}`, 'utf8')).toBe(readFileSync(settings, 'utf8'));
  } finally {
    await runtime.close();
  }
});
