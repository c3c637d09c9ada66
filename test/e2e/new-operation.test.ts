// `pnpm new:operation` on a scratch copy of the checkout (its files that git tracks or would): the operation it adds has
// its three faces (a CLI command that runs, an HTTP route the service mounts, an MCP tool), and a
// second run with the same name is refused and changes nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, expect, test } from 'vitest';
// @ts-expect-error: a build script without type declarations.
import { importSources } from '../../scripts/import-sources.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'svc-new-operation-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyCheckout(): void {
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(scratch, file));
  }
  for (const dir of ['.', 'sdk', 'extension-format']) symlinkSync(join(ROOT, dir, 'node_modules'), join(scratch, dir, 'node_modules'), 'dir');
}

const newOperation = (...args: string[]) => spawnSync(process.execPath, ['scripts/new-operation.mjs', ...args], { cwd: scratch, encoding: 'utf8' });

interface Faces {
  operation(name: string): { name: string; http?: { method: string; path: string } } | undefined;
  commandNames(group: string): string[];
  runCli(argv: string[], io: unknown): Promise<number>;
  mcpTools(profile: string): string[];
  mountedRoutes(): string[];
}

test('the operation it adds answers on the CLI, over HTTP and as an MCP tool', { timeout: 240_000 }, async () => {
  copyCheckout();
  const added = newOperation('task', 'count');
  expect(added.stderr).toBe('');
  expect(added.status).toBe(0);
  expect(added.stdout).toContain('added count_task: svc task count');

  const faces = (await importSources(
    scratch,
    `import { ALL_OPERATIONS } from './host/src/app/all-operations.ts';
     import { commandNames } from './host/src/app/cli/command-table.ts';
     import { runCli } from './host/src/app/run-cli.ts';
     import { CapabilityDefinition } from './host/src/adapters/mcp/index.ts';
     import { createHttpApp } from './host/src/adapters/http/index.ts';
     import { Logger } from './host/src/platform/logging/index.ts';
     import { OperationInvoker } from './host/src/operation-framework/index.ts';
     export { commandNames, runCli };
     export const operation = (name) => ALL_OPERATIONS.get(name);
     export const mcpTools = (profile) => new CapabilityDefinition(ALL_OPERATIONS.list()).toolsOf(profile).map((tool) => tool.name);
     export function mountedRoutes() {
       const invoker = new OperationInvoker({ registry: ALL_OPERATIONS, services: () => Promise.reject(new Error('not used')), caller: { via: 'http' } });
       const app = createHttpApp({ invoker, token: 'scratch', logger: new Logger({ stderrLevel: 'error' }), hostVersion: '0.0.0', catalog: {} });
       const router = app.middleware.map((m) => m.router).find(Boolean);
       return router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => method + ' ' + layer.path));
     }`,
    'new-operation-faces',
  )) as Faces;

  expect(faces.operation('count_task')?.http).toEqual({ method: 'GET', path: '/api/task-count' });
  expect(faces.mountedRoutes()).toContain('GET /api/task-count');
  expect(faces.mcpTools('full')).toContain('count_task');
  expect(faces.commandNames('task')).toContain('count');

  let out = '';
  const home = join(scratch, 'svc-home');
  const sink = (write: (text: string) => void) => new Writable({ write: (chunk, _encoding, done) => (write(String(chunk)), done()) });
  const io = { stdin: new PassThrough(), stdout: sink((text) => (out += text)), stderr: sink(() => {}), env: { ...process.env, SVC_HOME: home, NO_COLOR: '1' }, cwd: scratch };
  expect(await faces.runCli(['task', 'count', '--json'], io)).toBe(0);
  expect(JSON.parse(out)).toEqual({});
  expect(readFileSync(join(scratch, 'docs/mcp-tools.md'), 'utf8')).toContain('count_task');
});

test('a name already taken is refused and nothing changes', () => {
  const table = join(scratch, 'host/src/app/cli/command-names.ts');
  const before = readFileSync(table, 'utf8');
  const again = newOperation('task', 'count');
  expect(again.status).toBe(2);
  expect(again.stderr).toContain('exists already');
  expect(readFileSync(table, 'utf8')).toBe(before);
  expect(newOperation('review', 'count').stderr).toContain('is not a core group');
});
