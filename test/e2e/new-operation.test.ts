// `pnpm new:operation` on a scratch copy of the checkout (its files that git tracks or would, as a
// repository of its own): it adds one file, the declaration, and the operation has its three faces
// (a CLI command that runs, an HTTP route the service mounts, an MCP tool), the suite's structural
// tests pass on the copy with it, and a second run with the same name is refused and changes nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
  for (const dir of ['.', 'sdk', 'extension-format', 'catalog', 'host', 'harness', 'app']) linkNodeModules(dir);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=svc', '-c', 'user.email=svc@example.invalid', ...args], { cwd: scratch, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'the checkout');
}

/** What git says changed in the copy since it was made. */
const changed = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: scratch, encoding: 'utf8' }).split('\n').filter(Boolean);

/**
 * A package's node_modules in the copy: each installed package links to the checkout's, and each
 * workspace package (`@svc-org/…`) to the copy's own folder, so the copy's sources import each other.
 */
function linkNodeModules(dir: string): void {
  const from = join(ROOT, dir, 'node_modules');
  if (!existsSync(from)) return;
  const to = join(scratch, dir, 'node_modules');
  mkdirSync(join(to, '@svc-org'), { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry === '@svc-org' || entry.startsWith('.cache') || entry.startsWith('.vite')) continue;
    symlinkSync(join(from, entry), join(to, entry));
  }
  // pnpm links a workspace package by a relative path (`../../host`): the same path from the copy names the copy's.
  for (const entry of existsSync(join(from, '@svc-org')) ? readdirSync(join(from, '@svc-org')) : []) symlinkSync(readlinkSync(join(from, '@svc-org', entry)), join(to, '@svc-org', entry));
}

/** The structural tests that hold every operation to the registry, its faces and the command table. */
const STRUCTURAL_TESTS = ['test/operation-lists.test.ts', 'host/test/operations/operation-faces.test.ts', 'host/test/operations/operation-entry-points.test.ts', 'host/test/cli/command-names.test.ts'];

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
  // One file: the declaration. Its group's index.ts, the command names and docs/mcp-tools.md are generated, not tracked.
  expect(changed()).toEqual(['?? host/src/operations/task/count-task.ts']);

  const faces = (await importSources(
    scratch,
    `import { ALL_OPERATIONS } from './app/src/all-operations.ts';
     import { commandNames } from './app/src/cli/command-table.ts';
     import { runCli } from './app/src/run-cli.ts';
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

test("the suite's structural tests pass on the copy with the operation it added", { timeout: 240_000 }, () => {
  expect(readFileSync(join(scratch, 'host/src/operations/task/index.ts'), 'utf8')).toContain('countTask');
  // The suite's config without its global set-up (which builds the bundles these tests do not run).
  writeFileSync(
    join(scratch, 'vitest.structural.config.ts'),
    `import { readFileSync } from 'node:fs';
     import { defineConfig } from 'vitest/config';
     export default defineConfig({
       plugins: [{ name: 'sql-as-text', load: (id) => (id.endsWith('.sql') ? 'export default ' + JSON.stringify(readFileSync(id, 'utf8')) + ';' : undefined) }],
       test: { include: ${JSON.stringify(STRUCTURAL_TESTS)}, testTimeout: 120_000, setupFiles: ['test/support/process-env-guard.ts'] },
     });\n`,
  );
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.structural.config.ts', '--reporter', 'verbose'], {
    cwd: scratch,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  for (const file of STRUCTURAL_TESTS) expect(run.stdout).toContain(file);
  expect(run.stdout).toMatch(/every operation that declares its CLI command is that command/);
});

test('a name already taken is refused and nothing changes', () => {
  const table = join(scratch, 'app/src/cli/command-names.ts');
  const before = readFileSync(table, 'utf8');
  const again = newOperation('task', 'count');
  expect(again.status).toBe(2);
  expect(again.stderr).toContain('exists already');
  expect(readFileSync(table, 'utf8')).toBe(before);
  expect(newOperation('review', 'count').stderr).toContain('is not a core group');
});
