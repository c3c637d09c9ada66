// How a provider's worker thread loads the provider's entry: where Node can, within the bootstrap's
// own step (require), without the asynchronous ES module loader's later steps; an entry require()
// cannot take (top-level await) or gives no module namespace (CommonJS, an ES module exporting
// 'module.exports') is imported as before. Either way the entry is evaluated once and a failing
// one fails every call the same. Real worker threads and the built bootstrap, plain-JS providers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ExtensionRuntime, PluginStorageStore, resolveWorkerFile, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { requireLoadsModules } from '../../src/features/extensions/runtime/require-entry.js';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Logger } from '../../src/platform/logging/index.js';

let dir: string;
let db: Db;
let runtime: ExtensionRuntime;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-entry-load-'));
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

/** A provider whose every call answers `answer` (a JS expression), after `top` ran at its evaluation. */
function provider(file: string, top: string, answer: string, esm = true): string {
  const evaluations = join(dir, `${file}.evaluations`);
  const plugin = `{ $marker: 'svc.cli-plugin', apiVersion: '1.0', createAdapter: () => ({ async generate() { return { text: String(${answer}), toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [] }; } }) }`;
  const count = `require('node:fs').appendFileSync(${JSON.stringify(evaluations)}, 'x');`;
  writeFileSync(
    join(dir, file),
    esm
      ? `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${count}\n${top}\nexport const svcCliPlugin = ${plugin};\n`
      : `${count}\n${top}\nexports.svcCliPlugin = ${plugin};\n`,
  );
  return file;
}

const extension = (file: string): LoadableExtension => ({ id: `svc-test.${file.replace(/\W/g, '-')}`, entryPath: join(dir, file), revision: '1', granted: new Set(), cli: { command: 'none', version: '1.0.0' } });
const generate = (file: string) => runtime.call(extension(file), 'generate', [{ prompt: 'hello', cwd: dir }]) as Promise<{ text: string }>;
const evaluations = (file: string) => readFileSync(join(dir, `${file}.evaluations`), 'utf8').length;

test('an ES module entry is evaluated within the bootstrap step that loads it, once', async () => {
  // The frames the entry is evaluated under (not the `async` ones V8 adds of the awaits that led
  // there): the bootstrap's are among them only when it evaluated the entry itself.
  const file = provider('sync.mjs', 'Error.stackTraceLimit = Infinity; const stack = new Error().stack;', 'stack');
  const { text: stack } = await generate(file);
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line) && !/^\s+at async /.test(line));
  expect(frames.some((frame) => frame.includes(resolveWorkerFile()))).toBe(requireLoadsModules());
  await generate(file);
  expect(evaluations(file)).toBe(1);
});

test('an entry with top-level await is imported, evaluated once, and answers', async () => {
  const file = provider('top-level-await.mjs', 'const ready = await new Promise((resolve) => setTimeout(() => resolve("awaited"), 10));', 'ready');
  expect(await generate(file)).toMatchObject({ text: 'awaited' });
  expect(await generate(file)).toMatchObject({ text: 'awaited' });
  expect(evaluations(file)).toBe(1);
});

test('a CommonJS entry, and an ES module that also exports "module.exports", answer with the namespace import() gives', async () => {
  const cjs = provider('entry.cjs', '', '"commonjs"', false);
  expect(await generate(cjs)).toMatchObject({ text: 'commonjs' });
  expect(evaluations(cjs)).toBe(1);
  const interop = provider('interop.mjs', 'const other = { svcCliPlugin: undefined }; export { other as "module.exports" };', '"namespace"');
  expect(await generate(interop)).toMatchObject({ text: 'namespace' });
  expect(evaluations(interop)).toBe(1);
});

test('an entry that throws as it is evaluated fails every call the same, and is evaluated once', async () => {
  const file = provider('throws.mjs', 'throw new Error("entry refused to load");', '""');
  for (let call = 0; call < 2; call++) {
    await expect(generate(file)).rejects.toMatchObject({ code: 'plugin_error', message: expect.stringContaining('entry refused to load') });
  }
  expect(evaluations(file)).toBe(1);
});
