// What a `svc` command evaluates before it answers. The bundle wraps every module reached through a
// dynamic import() in a lazy initialiser (esbuild's `__esm`); a copy of the built bundle whose
// initialiser reports each module it runs shows which modules a command evaluated (and, through the
// CommonJS wrapper, each bundled package such as ajv). A command must evaluate its own module and the
// operations it uses, not every command and every operation.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, REPO_ROOT, SVC_BIN } from '../support/svc-process.js';

const svc = createSvcSandbox();
// Beside the real bundle, so its relative paths (the worker, package.json) and packages resolve alike.
const traced = join(REPO_ROOT, 'host/dist', `svc-module-trace-${process.pid}.mjs`);
afterAll(() => {
  rmSync(traced, { force: true });
  svc.cleanup();
});

const INIT = 'var __esm = (fn2, res, err) => function __init() {\n';
const CJS_INIT = 'var __commonJS = (cb, mod2) => function __require2() {\n';
// Where zod gives a new schema its internals: once per schema constructed.
const ZOD_SCHEMA = /_zodDesc\.value = new Internals\(\w+\);/;

/** The built bundle with an initialiser that writes, at exit, the modules it evaluated. */
function writeTracedBundle(): void {
  const code = readFileSync(join(REPO_ROOT, 'host/dist/svc.mjs'), 'utf8');
  if (!code.includes(INIT) || !code.includes(CJS_INIT) || !ZOD_SCHEMA.test(code)) throw new Error("the bundle's lazy initialisers or zod's constructor changed shape: update this test's tracer");
  writeFileSync(
    traced,
    code
      .replace(
        INIT,
        'globalThis.__svcModules ??= (process.on("exit", () => process.stderr.write(`evaluated: ${JSON.stringify(globalThis.__svcModules)}\\n`)), []);\n' +
          `${INIT}  if (fn2) globalThis.__svcModules.push(Object.keys(fn2)[0]);\n`,
      )
      .replace(CJS_INIT, `${CJS_INIT}  if (!mod2) globalThis.__svcModules.push(Object.keys(cb)[0]);\n`)
      .replace(ZOD_SCHEMA, (line) => `${line} globalThis.__svcSchemas = (globalThis.__svcSchemas ?? 0) + 1;`)
      .replace('process.stderr.write(`evaluated: ', 'process.stderr.write(`schemas: ${globalThis.__svcSchemas ?? 0}\\nevaluated: '),
  );
}

function evaluatedBy(args: string[], env = svc.env): { status: number | null; stdout: string; modules: string[]; schemas: number } {
  const run = spawnSync(process.execPath, [traced, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  const report = /evaluated: (.*)\n/.exec(run.stderr);
  const schemas = /schemas: (\d+)\n/.exec(run.stderr);
  if (!report || !schemas) throw new Error(`no module report from svc ${args.join(' ')}: ${run.stderr}`);
  return { status: run.status, stdout: run.stdout, modules: JSON.parse(report[1]!) as string[], schemas: Number(schemas[1]) };
}

const COMMAND_FILES = [
  'app/src/cli/host-commands.ts',
  'harness/src/cli/gateway-commands.ts',
  'harness/src/cli/harness-commands.ts',
  'app/src/cli/task-worktree-commands.ts',
  'host/src/adapters/cli/commands/catalog-commands.ts',
  'host/src/adapters/cli/commands/connection-commands.ts',
  'host/src/adapters/cli/commands/knowledge-commands.ts',
  'host/src/adapters/cli/commands/workspace-commands.ts',
];

describe('svc evaluates what the command needs', () => {
  writeTracedBundle();

  it('svc task list evaluates the one file that declares its operation, not the command modules or every operation', () => {
    const list = evaluatedBy(['task', 'list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toBe('no tasks\n');
    // Derived from list_tasks's `cli` part: neither the task group's other commands nor their operations (the task terminals' among them).
    expect(list.modules.filter((file) => /^host\/src\/operations\//.test(file))).toEqual(['host/src/operations/task/list-tasks.ts']);
    expect(list.modules).not.toContain('host/src/adapters/cli/commands/task-commands.ts');
    for (const file of COMMAND_FILES) expect(list.modules).not.toContain(file);
    expect(list.modules).not.toContain('app/src/cli/all-commands.ts');
    expect(list.modules).not.toContain('app/src/all-operations.ts');
    expect(list.modules).not.toContain('host/src/host-operations.ts');
    expect(list.modules.filter((file) => /^host\/src\/operations\/(extension|connection|worktree|label|workspace|hook)\//.test(file))).toEqual([]);
    expect(list.modules.filter((file) => file.startsWith('harness/src/'))).toEqual([]);
    expect(list.modules.filter((file) => /^host\/src\/(knowledge|daily|products|task-history)\//.test(file))).toEqual([]);
  });

  it('svc task list builds the schemas of its own operation and of the rows it reads, not every record and operation schema of the host', () => {
    const list = evaluatedBy(['task', 'list']);
    expect(list.stdout).toBe('no tasks\n');
    // About 790 when the command evaluated the task group's command module with every domain record
    // schema; about 250 with its one operation, the rows' and the records' shown forms built at their
    // first use, and the SDK's unsupported-attachment schema without the session process's; about 80
    // with the records' create, update and filter inputs (and the operations' built from them) built
    // at their first use too; about 50 with the task, task view and attention schemas built at their
    // first use, which the table does not need (it prints the handler's answer; `--json` checks it).
    expect(list.schemas).toBeGreaterThan(0);
    expect(list.schemas).toBeLessThan(60);
  });

  it('svc task list builds no table of error codes (a command that succeeds answers with none); a failing one still says its error', () => {
    const preload = join(svc.home, 'error-table-report.cjs');
    writeFileSync(
      preload,
      'const fromEntries = Object.fromEntries; let built = false;\n' +
        "Object.fromEntries = function (entries) { const made = fromEntries(entries); if ('invalid_request' in made && 'internal' in made) built = true; return made; };\n" +
        "process.on('exit', () => process.stderr.write(`error table built: ${built}\\n`));\n",
    );
    const run = (args: string[]) => spawnSync(process.execPath, ['-r', preload, SVC_BIN, ...args], { env: svc.env, encoding: 'utf8', timeout: 60_000 });
    const list = run(['task', 'list']);
    expect(list.stdout).toBe('no tasks\n');
    expect(list.stderr).toContain('error table built: false');
    const missing = run(['task', 'show', '99']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no task with id 99');
  });

  it('svc task list opens the host without its provider extensions: no registry, runtime, catalog installer or preflight, no ajv or semver', () => {
    const list = evaluatedBy(['task', 'list']);
    expect(list.stdout).toBe('no tasks\n');
    expect(list.modules).toContain('host/src/host-services.ts');
    expect(list.modules).toContain('host/src/features/connections/connection-store.ts');
    expect(list.modules).not.toContain('host/src/host-extensions.ts');
    expect(list.modules.filter((file) => file.startsWith('host/src/features/extensions/'))).toEqual([]);
    expect(list.modules.filter((file) => /\/node_modules\/(ajv|semver)\//.test(file))).toEqual([]);
  });

  it('svc task list opens the host without the terminal manager: the signal folder alone, no node-pty', () => {
    const list = evaluatedBy(['task', 'list']);
    expect(list.stdout).toBe('no tasks\n');
    expect(list.modules).toContain('host/src/features/terminals/signal-dir.ts');
    expect(list.modules.filter((file) => file.startsWith('host/src/features/terminals/') && !file.endsWith('/signal-dir.ts'))).toEqual([]);
    expect(list.modules).not.toContain('required-on-use:node-pty');
  });

  it('svc task list evaluates the SDK modules it uses, not the SDK\'s index with every schema of the provider contract', () => {
    const list = evaluatedBy(['task', 'list']);
    expect(list.stdout).toBe('no tasks\n');
    expect(list.modules).toContain('sdk/src/errors/svc-error.ts');
    const sdk = list.modules.filter((file) => file.startsWith('sdk/src/'));
    for (const file of ['sdk/src/index.ts', 'sdk/src/manifest/manifest-schema.ts', 'sdk/src/protocol/v1/adapter-methods.ts', 'sdk/src/events/cli-stream-event.ts']) {
      expect(sdk).not.toContain(file);
    }
  });

  it('svc task list evaluates no pino (it logs nothing); a command that logs loads it and writes its lines', () => {
    const list = evaluatedBy(['task', 'list']);
    expect(list.stdout).toBe('no tasks\n');
    expect(list.modules.filter((file) => /\/node_modules\/(pino|sonic-boom)\//.test(file))).toEqual([]);
    // A home of its own: the piscina test below registers the same provider.
    const own = createSvcSandbox();
    try {
      const add = evaluatedBy(['ext', 'dev', 'add', copyFixtureProvider('echo')], own.env);
      expect(add.status).toBe(0);
      expect(add.modules.some((file) => /\/node_modules\/pino\//.test(file))).toBe(true);
      expect(readFileSync(join(own.home, 'logs', 'svc.log'), 'utf8')).toContain('"message":"developer extension registered"');
    } finally {
      own.cleanup();
    }
  });

  it('svc task list reads the worktree rows without evaluating the worktree operations', () => {
    const list = evaluatedBy(['task', 'list']);
    expect(list.stdout).toBe('no tasks\n');
    expect(list.modules).toContain('host/src/features/worktrees/worktree-store.ts');
    expect(list.modules.filter((file) => file.startsWith('host/src/features/worktrees/') && !file.endsWith('/worktree-store.ts'))).toEqual([]);
  });

  it('svc project list evaluates the operations of the groups it uses, not every declaration', () => {
    const groups = /^host\/src\/operations\/(project|workspace|label)\//;
    const run = evaluatedBy(['project', 'list']);
    expect(run.status).toBe(0);
    expect(run.modules).not.toContain('host/src/host-operations.ts');
    const operations = run.modules.filter((file) => /^host\/src\/operations\/[a-z-]+\//.test(file));
    expect(operations.length).toBeGreaterThan(0);
    expect(operations.filter((file) => !groups.test(file))).toEqual([]);
  });

  it('a command that uses the extensions still evaluates them, and the tracer sees ajv and semver', () => {
    const list = evaluatedBy(['ext', 'list']);
    expect(list.status).toBe(0);
    expect(list.modules).toContain('host/src/features/extensions/extension-service.ts');
    expect(list.modules.some((file) => /\/node_modules\/ajv\//.test(file))).toBe(true);
    expect(list.modules.some((file) => /\/node_modules\/semver\//.test(file))).toBe(true);
  });

  it('a mistyped command is answered from the table, evaluating no command module', () => {
    const typo = evaluatedBy(['task', 'lst']);
    expect(typo.status).toBe(2);
    expect(typo.modules.filter((file) => file.includes('-commands.ts'))).toEqual([]);
  });

  it('svc --help evaluates every command module (the tracer sees them when they load)', () => {
    const help = evaluatedBy(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('task list');
    for (const file of [...COMMAND_FILES, 'host/src/adapters/cli/commands/task-commands.ts']) expect(help.modules).toContain(file);
  });
});

describe('Node built-ins and external packages load when a module that uses them is evaluated', () => {
  it('the bundles import nothing at their top but the require they take built-ins and external packages through', () => {
    for (const bundle of ['svc.mjs', 'mcp.mjs', 'provider-process.mjs']) {
      const code = readFileSync(join(REPO_ROOT, 'host/dist', bundle), 'utf8');
      expect(code.startsWith("import { createRequire as __svcCreateRequire } from 'node:module';")).toBe(true);
      // esbuild writes the imports it hoists with double quotes (the banner's and the scaffold's templates use single ones).
      expect(code.match(/^import [^\n]* from "[^"]+";$/gm) ?? []).toEqual([]);
    }
  });

  it('svc task list loads neither the HTTP/2 stack nor readline (what svc serve and prompts use), nor crypto and child_process', () => {
    const report = join(svc.home, 'builtins-report.cjs');
    writeFileSync(
      report,
      "process.on('exit', () => process.stderr.write(`builtins: ${process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(',')}\\n`));\n",
    );
    const run = spawnSync(process.execPath, ['-r', report, join(REPO_ROOT, 'host/dist/svc.mjs'), 'task', 'list'], { env: svc.env, encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout).toBe('no tasks\n');
    const loaded = /builtins: (.*)\n/.exec(run.stderr)?.[1]?.split(',') ?? [];
    expect(loaded).toContain('fs');
    expect(loaded).not.toContain('http2');
    expect(loaded).not.toContain('readline');
    // The service's client (its install token, its server file) is evaluated by commands that reach the service only.
    expect(loaded).not.toContain('crypto');
    expect(loaded).not.toContain('child_process');
  });
});

// The CommonJS loader's cache at exit: every file of an external package (piscina, libsql) that was required.
const packagesLoadedBy = (args: string[]) => {
  const report = join(svc.home, 'packages-report.cjs');
  writeFileSync(
    report,
    // Provider threads inherit the preload: only the main thread reports.
    "if (require('node:worker_threads').isMainThread) process.on('exit', () => process.stderr.write(`packages: ${JSON.stringify(Object.keys(require.cache).filter((file) => file.includes('node_modules')))}\\n`));\n",
  );
  const run = spawnSync(process.execPath, ['-r', report, join(REPO_ROOT, 'host/dist/svc.mjs'), ...args], { env: svc.env, encoding: 'utf8', timeout: 60_000 });
  const files = /packages: (.*)\n/.exec(run.stderr)?.[1];
  if (!files) throw new Error(`no package report from svc ${args.join(' ')}: ${run.stderr}`);
  const loaded = JSON.parse(files) as string[];
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, loaded, piscina: loaded.filter((file) => /[\\/]node_modules[\\/]piscina[\\/]/.test(file)) };
};

describe('libsql loads without probing the C library', () => {
  it('svc task list loads libsql\'s native package without the packages that probe the C library (a diagnostic report, child_process)', () => {
    const tasks = packagesLoadedBy(['task', 'list']);
    expect(tasks.stdout).toBe('no tasks\n');
    expect(tasks.loaded.some((file) => /[\\/]node_modules[\\/]@libsql[\\/][a-z0-9-]+[\\/]index\.node$/.test(file))).toBe(true);
    expect(tasks.loaded.filter((file) => /[\\/]node_modules[\\/](detect-libc|@neon-rs)[\\/]/.test(file))).toEqual([]);
  });
});

describe('piscina loads with the first worker pool', () => {
  it('svc task list and svc ext list do not load it; a provider call does, and is answered', () => {
    const echo = copyFixtureProvider('echo');
    expect(spawnSync(process.execPath, [SVC_BIN, 'ext', 'dev', 'add', echo], { env: svc.env }).status).toBe(0);
    expect(spawnSync(process.execPath, [SVC_BIN, 'ext', 'enable', 'svc-test.echo', '--yes'], { env: svc.env }).status).toBe(0);
    const tasks = packagesLoadedBy(['task', 'list']);
    expect(tasks.stdout).toBe('no tasks\n');
    expect(tasks.piscina).toEqual([]);
    const extensions = packagesLoadedBy(['ext', 'list']);
    expect(extensions.status).toBe(0);
    expect(extensions.stdout).toContain('svc-test.echo');
    expect(extensions.piscina).toEqual([]);
    const query = packagesLoadedBy(['query', '--provider', 'svc-test.echo', 'hi there']);
    expect(query.status, query.stderr).toBe(0);
    expect(query.stdout).toBe('hello\nhi\nthere\n');
    expect(query.piscina.length).toBeGreaterThan(0);
  });
});
