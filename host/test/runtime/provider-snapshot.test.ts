// A hardened provider process starts from a V8 start-up snapshot of its main, built by the host
// (provider-snapshot.ts): real node processes under the permission model, real snapshot files.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { ExtensionRuntime, PluginStorageStore, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { Logger } from '../../src/platform/logging/index.js';

let dir: string;
let cacheRoot: string;
let db: Db;
const savedCache = process.env.NODE_COMPILE_CACHE;

// Each answers with how its process was started, and what it is.
const ADAPTER = `{ createAdapter: () => ({ generate: async () => ({ text: JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(1), kind: KIND, cwdReadable: process.permission.has('fs.read', process.cwd()), perfHooks: process.moduleLoadList.includes('NativeModule perf_hooks') }), toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [] }) }) }`;

function provider(name: string, files: Record<string, string>): LoadableExtension {
  const packageDir = join(dir, name);
  mkdirSync(packageDir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(packageDir, file), text);
  return { id: `svc-test.${name}`, entryPath: join(packageDir, 'index.js'), packageDir, revision: name, granted: new Set(), cli: { command: 'none', version: '1.0.0' }, isolation: 'process' };
}

const esm = (kind: string, head = '') => ({
  'package.json': '{ "type": "module" }\n',
  'index.js': `${head}const KIND = ${JSON.stringify(kind)};\nexport const svcCliPlugin = { $marker: 'svc.cli-plugin', apiVersion: '1.0', ...${ADAPTER} };\n`,
});

/** One call on a fresh runtime (a cold launch): how the provider's process was started. */
async function launch(extension: LoadableExtension): Promise<{ execArgv: string[]; argv: string[]; kind: string; cwdReadable: boolean; perfHooks: boolean }> {
  const runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
  });
  try {
    const { text } = (await runtime.call(extension, 'generate', [{ prompt: 'how', cwd: dir }])) as { text: string };
    return JSON.parse(text) as { execArgv: string[]; argv: string[]; kind: string; cwdReadable: boolean; perfHooks: boolean };
  } finally {
    await runtime.close();
  }
}

const snapshots = () => {
  const folder = join(cacheRoot, `svc-v8-${process.getuid?.() ?? 'user'}`);
  return readdirSync(folder).filter((name) => name.endsWith('.snapshot')).map((name) => join(folder, name));
};

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-snapshot-')));
  // A cache folder of this test's own: the snapshot is built here, not found from an earlier run.
  cacheRoot = join(dir, 'cache');
  process.env.NODE_COMPILE_CACHE = cacheRoot;
  db = openDatabase(join(dir, 'svc.db'));
});

afterAll(() => {
  if (savedCache === undefined) delete process.env.NODE_COMPILE_CACHE;
  else process.env.NODE_COMPILE_CACHE = savedCache;
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('a hardened provider process started from a snapshot', () => {
  test('starts from a snapshot the host built once, owned by the user and writable by nobody else, under the same flags', async () => {
    const first = await launch(provider('plain', esm('plain')));
    const [file] = snapshots();
    expect(snapshots()).toHaveLength(1);
    expect(first.execArgv).toContain('--snapshot-blob');
    expect(first.execArgv[first.execArgv.indexOf('--snapshot-blob') + 1]).toBe(file);
    // It starts from the snapshot, under the permission model; the bootstrap's path is its script
    // argument only, so that Node 22 and later grant no read of the working directory in its place.
    expect(first.argv[0]?.endsWith('provider-process.mjs')).toBe(true);
    expect(first.execArgv.some((arg) => arg === '--permission' || arg === '--experimental-permission')).toBe(true);
    expect(first.cwdReadable).toBe(false);
    const stat = statSync(file!);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(stat.uid).toBe(process.getuid?.());
    // A later cold launch starts from the same file; it is not built again.
    const second = await launch(provider('plain-again', esm('plain-again')));
    expect(second.execArgv[second.execArgv.indexOf('--snapshot-blob') + 1]).toBe(file);
    expect(statSync(file!).mtimeMs).toBe(stat.mtimeMs);
  });

  test("has not loaded perf_hooks by its first call: the entry's load is timed by a clock Node already has", async () => {
    expect((await launch(provider('untimed', esm('untimed')))).perfHooks).toBe(false);
  });

  test('imports an entry with top-level await, and a CommonJS entry, as import() does', async () => {
    expect((await launch(provider('awaits', esm('awaits', 'await new Promise((resolve) => setTimeout(resolve, 1));\n')))).kind).toBe('awaits');
    const commonJs = await launch(
      provider('common-js', {
        'package.json': '{}\n',
        'index.js': `const KIND = 'common-js';\nexports.svcCliPlugin = { $marker: 'svc.cli-plugin', apiVersion: '1.0', ...${ADAPTER} };\n`,
      }),
    );
    expect(commonJs.kind).toBe('common-js');
    expect(commonJs.execArgv).toContain('--snapshot-blob');
  });

  test('a snapshot file, or a folder, others may write is not started from: the launch loads the bootstrap bundle', async () => {
    const extension = provider('plain-refused', esm('plain-refused'));
    expect((await launch(extension)).execArgv).toContain('--snapshot-blob');
    for (const file of snapshots()) chmodSync(file, 0o666);
    const refused = await launch({ ...extension, revision: 'refused' });
    expect(refused.execArgv).not.toContain('--snapshot-blob');
    expect(refused.argv.some((arg) => arg.endsWith('provider-process.mjs'))).toBe(true);
    expect(refused.kind).toBe('plain-refused');
    for (const file of snapshots()) chmodSync(file, 0o600);
    expect((await launch({ ...extension, revision: 'trusted-again' })).execArgv).toContain('--snapshot-blob');
    const folder = join(cacheRoot, `svc-v8-${process.getuid?.() ?? 'user'}`);
    chmodSync(folder, 0o777);
    try {
      expect((await launch({ ...extension, revision: 'folder-refused' })).execArgv).not.toContain('--snapshot-blob');
    } finally {
      chmodSync(folder, 0o700);
    }
  });
});
