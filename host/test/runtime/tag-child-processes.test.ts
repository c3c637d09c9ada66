// Every process a worker provider starts with Node's own child_process carries its thread's tag,
// even with an environment of its own: the tag is added where every spawn ends (Node's process_wrap
// and spawn_sync bindings), so the thread loads no child_process before the provider asks for it,
// and the child_process a provider imports at any time tags. Real worker threads and the built
// bootstrap with a plain-JS provider; the argument layouts each Node line gives the bindings, and
// the fallback that patches child_process itself, checked on the function alone.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ExtensionRuntime, PluginStorageStore, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { bindingLayoutKnown, tagChildProcesses } from '../../src/features/extensions/runtime/tag-child-processes.js';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Logger } from '../../src/platform/logging/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const TAG = /^\d+-[0-9a-f]{8}\.\d+\.\d+$/;
let dir: string;
let db: Db;
let runtime: ExtensionRuntime;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-tag-'));
  db = openDatabase(join(dir, 'svc.db'));
  runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger(),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
  });
});
afterAll(async () => {
  await runtime.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Node code that prints the tag it was started with. */
const PRINT_TAG = "process.stdout.write(String(process.env.SVC_PROVIDER_THREAD))";

/**
 * A provider that says whether child_process was loaded before it was evaluated, then imports it
 * itself in its call and starts a process each way, each with an environment of its own (PATH only).
 */
function spawningProvider(): string {
  const forked = join(dir, 'print-tag.cjs');
  writeFileSync(forked, PRINT_TAG);
  const file = join(dir, 'spawning.mjs');
  writeFileSync(
    file,
    `const loadedFirst = process.moduleLoadList.includes('NativeModule child_process');
const node = process.execPath;
const print = ['-e', ${JSON.stringify(PRINT_TAG)}];
const command = '"' + node + '" -e "' + ${JSON.stringify(PRINT_TAG)} + '"';
const env = { PATH: process.env.PATH };
const output = (child) => new Promise((resolve, reject) => {
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.on('error', reject);
  child.on('close', () => resolve(text));
});
const answer = (callback) => new Promise((resolve, reject) => callback((error, stdout) => (error ? reject(error) : resolve(String(stdout)))));
export const svcCliPlugin = {
  $marker: 'svc.cli-plugin',
  apiVersion: '1.0',
  createAdapter: () => ({
    async generate() {
      const cp = await import('node:child_process');
      const tags = {
        spawn: await output(cp.spawn(node, print, { env })),
        execFile: await answer((done) => cp.execFile(node, print, { env }, done)),
        exec: await answer((done) => cp.exec(command, { env }, done)),
        fork: await output(cp.fork(${JSON.stringify(forked)}, [], { env, silent: true })),
        spawnSync: String(cp.spawnSync(node, print, { env }).stdout),
        execFileSync: String(cp.execFileSync(node, print, { env })),
        execSync: String(cp.execSync(command, { env })),
      };
      return { text: JSON.stringify({ loadedFirst, tags }), toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [] };
    },
  }),
};
`,
  );
  return file;
}

test("a provider's first import of child_process tags every process it starts, and the thread loaded none before it", async () => {
  const entryPath = spawningProvider();
  const extension: LoadableExtension = { id: 'svc-test.spawning', entryPath, revision: '1', granted: new Set(), cli: { command: 'none', version: '1.0.0' } };
  const { text } = (await runtime.call(extension, 'generate', [{ prompt: 'spawn', cwd: dir }])) as { text: string };
  const { loadedFirst, tags } = JSON.parse(text) as { loadedFirst: boolean; tags: Record<string, string> };
  expect(loadedFirst).toBe(false);
  expect(Object.keys(tags)).toEqual(['spawn', 'execFile', 'exec', 'fork', 'spawnSync', 'execFileSync', 'execSync']);
  const [first] = Object.values(tags);
  expect(first).toMatch(TAG);
  for (const [way, tag] of Object.entries(tags)) expect(tag, way).toBe(first);
});

/** Bindings of the shape Node gives, recording what their spawns were called with. */
function fakeBindings() {
  const calls: unknown[][] = [];
  const record = (...args: unknown[]) => calls.push(args);
  class Process {
    spawn(...args: unknown[]) {
      record(...args);
      return 0;
    }
  }
  const spawnSync = { spawn: (...args: unknown[]) => record(...args) };
  const lookup = (name: string) => ({ process_wrap: { Process }, spawn_sync: spawnSync })[name];
  return { calls, lookup, Process, spawnSync };
}

test('the tag is added to the environment each Node line hands the bindings, and a spawn whose environment is not found starts nothing', () => {
  const { calls, lookup, Process, spawnSync } = fakeBindings();
  try {
    expect(tagChildProcesses('SVC_TEST_TAG', 'thread.1', lookup)).toBe('bindings');
    // Node 20 and 22: one options object; Node 24: the file, its arguments, the cwd, then the pairs.
    new Process().spawn({ file: 'true', envPairs: ['PATH=/bin'] });
    new Process().spawn('true', ['true'], null, ['PATH=/bin'], [], 0, null, null);
    spawnSync.spawn({ file: 'true', envPairs: ['PATH=/bin', 'SVC_TEST_TAG=thread.1'] });
    expect(calls).toEqual([
      [{ file: 'true', envPairs: ['PATH=/bin', 'SVC_TEST_TAG=thread.1'] }],
      ['true', ['true'], null, ['PATH=/bin', 'SVC_TEST_TAG=thread.1'], [], 0, null, null],
      [{ file: 'true', envPairs: ['PATH=/bin', 'SVC_TEST_TAG=thread.1'] }],
    ]);
    expect(() => new Process().spawn({ file: 'true' })).toThrow(expect.objectContaining({ code: 'spawn_untagged' }));
    expect(() => spawnSync.spawn('true', ['true'])).toThrow(expect.objectContaining({ code: 'spawn_untagged' }));
    expect(calls).toHaveLength(3);
  } finally {
    delete process.env.SVC_TEST_TAG;
  }
});

test('a Node line whose bindings take a layout the tests have not checked gets the fallback', () => {
  expect(['20.19.0', '22.12.0', '24.0.0'].map((version) => bindingLayoutKnown(version))).toEqual([true, true, true]);
  expect(['18.20.0', '21.7.0', '26.0.0', '27.1.0'].map((version) => bindingLayoutKnown(version))).toEqual([false, false, false, false]);
});

test.each([
  ['the bindings cannot be reached', "() => { throw new Error('no bindings here'); }"],
  ['the line is one whose binding layout is unknown', 'undefined, false'],
])('where %s, child_process itself is patched before the provider loads, and still tags', async (_case, lookupArguments) => {
  // In a thread of its own: the patch stays there.
  mkdirSync(join(ROOT, 'node_modules/.cache/svc-test'), { recursive: true });
  const bundle = join(ROOT, 'node_modules/.cache/svc-test/tag-child-processes.cjs');
  await build({ entryPoints: [join(ROOT, 'host/src/features/extensions/runtime/tag-child-processes.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'warning' });
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { tagChildProcesses } = require(${JSON.stringify(bundle)});
    const where = tagChildProcesses('SVC_PROVIDER_THREAD', 'fallback.1', ${lookupArguments});
    import('node:child_process').then(async (cp) => {
      const env = { PATH: process.env.PATH };
      const print = ['-e', ${JSON.stringify(PRINT_TAG)}];
      const spawned = await new Promise((resolve) => { let text = ''; const child = cp.spawn(process.execPath, print, { env }); child.stdout.on('data', (c) => (text += c)); child.on('close', () => resolve(text)); });
      parentPort.postMessage({ where, spawned, execFileSync: String(cp.execFileSync(process.execPath, print, { env })) });
    });`;
  const worker = new Worker(code, { eval: true, env: { PATH: process.env.PATH } });
  const answer = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  expect(answer).toEqual({ where: 'child_process', spawned: 'fallback.1', execFileSync: 'fallback.1' });
});
