// Adapter results are checked at the host's edge against the SDK's protocol table: a provider that
// answers a wrong shape fails the call with a registered code, on a worker thread and hardened.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AdapterMethods } from '@svc-org/ai-sdk';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { errorCodes } from '../../src/platform/errors/error-codes.js';
import { ExtensionRuntime, PluginStorageStore, type LoadableExtension } from '../../src/features/extensions/runtime/index.js';
import { Logger } from '../../src/platform/logging/index.js';

const PROVIDER = realpathSync(fileURLToPath(new URL('./fixtures/wrong-shape-provider.mjs', import.meta.url)));
let dir: string;
let db: Db;
let runtime: ExtensionRuntime;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-wrong-shape-')));
  db = openDatabase(join(dir, 'svc.db'));
  runtime = new ExtensionRuntime({
    storage: new PluginStorageStore(db),
    logger: new Logger({ sink: () => undefined }),
    platform: { os: 'linux', arch: 'x64', homeDir: dir, hostVersion: '0.3.0', nodeVersion: process.versions.node },
    limits: { cancelGraceMs: 300 },
  });
});
afterAll(async () => {
  await runtime.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const extension = (isolation: 'worker' | 'process'): LoadableExtension => ({
  id: `svc-test.wrong-shape-${isolation}`,
  entryPath: PROVIDER,
  packageDir: dirname(PROVIDER),
  revision: isolation,
  granted: new Set(['integration:mcp']),
  cli: { command: 'none', version: '1.0.0' },
  isolation,
});

test('every code the protocol table gives a wrong answer is registered', () => {
  for (const declaration of Object.values(AdapterMethods)) expect(errorCodes()).toHaveProperty(declaration.invalidResultCode);
});

describe.each(['worker', 'process'] as const)('a provider answering wrong shapes (%s)', (isolation) => {
  test('generate: plugin_invalid_result naming the wrong fields; a right answer passes', async () => {
    const error = await runtime.call(extension(isolation), 'generate', [{ prompt: 'garbage', cwd: dir }]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'plugin_invalid_result', pluginId: `svc-test.wrong-shape-${isolation}` });
    expect((error as Error).message).toMatch(/^generate\(\) returned an invalid result: .*text/);
    expect((error as Error).message).toContain('finishReason');
    await expect(runtime.call(extension(isolation), 'generate', [{ prompt: 'valid', cwd: dir }])).resolves.toMatchObject({ text: 'fine' });
  });

  test('models and the integration methods: plugin_invalid_result', async () => {
    await expect(runtime.call(extension(isolation), 'models', [])).rejects.toMatchObject({ code: 'plugin_invalid_result' });
    await expect(runtime.call(extension(isolation), 'mcp.inspect', [{ scope: 'user' }])).rejects.toMatchObject({ code: 'plugin_invalid_result' });
    await expect(runtime.call(extension(isolation), 'mcp.install', [{ name: 'x', command: 'x' }, { scope: 'user' }])).rejects.toMatchObject({
      code: 'plugin_invalid_result',
    });
    await expect(runtime.call(extension(isolation), 'mcp.uninstall', ['x', { scope: 'user' }])).rejects.toMatchObject({ code: 'plugin_invalid_result' });
  });

  test('buildSessionProcess: invalid_session_process, a shell string said so', async () => {
    await expect(runtime.call(extension(isolation), 'buildSessionProcess', [{ mode: 'fresh', cwd: dir }])).rejects.toMatchObject({
      code: 'invalid_session_process',
      message: expect.stringContaining('args'),
    });
    await expect(runtime.call(extension(isolation), 'buildSessionProcess', [{ mode: 'fresh', cwd: dir, model: 'shell' }])).rejects.toMatchObject({
      code: 'invalid_session_process',
      message: expect.stringContaining('shell command string'),
    });
  });
});
