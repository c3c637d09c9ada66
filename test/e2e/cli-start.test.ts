// What the `svc` executable does before it answers: a person (or an MCP client) waits for every
// start. A wall time varies with the machine's load; these check what a start loads, which does not
// (pnpm bench measures the times).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CapabilityDefinition, MCP_PROFILES } from '@svc-org/host/adapters/mcp';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { toolListing } from '@svc-org/host/adapters/mcp/create-mcp-server';
import { openDatabase, type Db } from '@svc-org/host/platform/db';
import { connectSvcMcp } from '../support/svc-mcp-client.js';
import { createSvcSandbox, REPO_ROOT, SVC_BIN } from '../support/svc-process.js';

const svc = createSvcSandbox();
afterAll(() => svc.cleanup());

/** Runs `svc <args>` with a preloaded script that reports, at exit, what the process loaded. */
function startReport(args: string[], input = ''): { status: number | null; stdout: string; flagsTableBuilt: boolean } {
  const preload = join(svc.home, 'start-report.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => process.stderr.write(`flags table built: ${typeof Object.getOwnPropertyDescriptor(process, 'allowedNodeEnvironmentFlags').get !== 'function'}\\n`));\n",
  );
  const run = spawnSync(process.execPath, ['-r', preload, SVC_BIN, ...args], { env: svc.env, input, encoding: 'utf8', timeout: 30_000 });
  const built = /flags table built: (true|false)/.exec(run.stderr);
  if (!built) throw new Error(`no start report from svc ${args.join(' ')}: ${run.stderr}`);
  return { status: run.status, stdout: run.stdout, flagsTableBuilt: built[1] === 'true' };
}

describe('svc start', () => {
  // `import process from 'node:process'` (the MCP SDK's stdio transport) makes Node read every
  // property of process for the module's facade; process.allowedNodeEnvironmentFlags then parses
  // Node's whole option table, a large share of a start.
  it('svc task list and svc mcp never build Node\'s table of allowed flags', () => {
    const list = startReport(['task', 'list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toBe('no tasks\n');
    expect(list.flagsTableBuilt).toBe(false);
    // An MCP client that closes stdin at once: the server starts and ends.
    const mcp = startReport(['mcp']);
    expect(mcp.status).toBe(0);
    expect(mcp.flagsTableBuilt).toBe(false);
  });

  it('the preloaded report sees the table when something does read the flags (the control)', () => {
    const doctor = startReport(['doctor']);
    expect(doctor.flagsTableBuilt).toBe(true);
  });

  // zod exports 64 locales on z.locales and svc speaks English only: the other 63 were a tenth of
  // the code every start compiled.
  it('the bundles carry zod\'s English messages only, and svc still says them', async () => {
    for (const bundle of ['svc.mjs', 'mcp.mjs']) {
      const code = readFileSync(join(REPO_ROOT, 'host/dist', bundle), 'utf8');
      expect(code).toContain('zod/v4/locales/en.js');
      expect(code).not.toMatch(/zod\/v4\/locales\/(?!en\.js|index\.js)[a-z-]+\.js/i);
    }
    const tooLong = await svc.run(['task', 'list', '--project', 'x'.repeat(300)]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('invalid list_tasks input: projectId: Too big: expected string to have <=100 characters');
  });

  // `import { z } from 'zod'` is zod's namespace object: esbuild built it at every start, a getter for
  // each of some 250 exports (and kept every part of zod that it names), and each `z.object` read it
  // through that getter. The CLI's scripts for Node 20 take zod's exports directly.
  it("the CLI's scripts bind zod's exports directly, without building zod's namespace object, and zod still answers", async () => {
    const namespace = /^var external_exports\d* = \{\};$/m;
    // The control: the ES module bundle, built from the same sources, builds it.
    expect(readFileSync(join(REPO_ROOT, 'host/dist/svc.mjs'), 'utf8')).toMatch(namespace);
    const scripts = readdirSync(join(REPO_ROOT, 'host/dist/cli')).filter((name) => name.endsWith('.vm.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) expect(readFileSync(join(REPO_ROOT, 'host/dist/cli', name), 'utf8'), name).not.toMatch(namespace);
    const tooLong = await svc.run(['task', 'list', '--project', 'x'.repeat(300)]);
    expect(tooLong.stderr).toContain('invalid list_tasks input: projectId: Too big: expected string to have <=100 characters');
  });

  // The entry is CommonJS: an ES module entry first sets up Node's ES module loader, whose
  // asynchronous reads also start libuv's four-thread pool, which the command's exit then waits for.
  it('svc --version needs no more of the ES module loader than a bare script, and on Node 20 svc task list none; svc.mjs is still the same command', () => {
    const jobs = (bin: string, args: string[]) => {
      const preload = join(svc.home, 'module-jobs-report.cjs');
      writeFileSync(preload, "process.on('exit', () => process.stderr.write(`module jobs: ${process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job')}\\n`));\n");
      const run = spawnSync(process.execPath, ['-r', preload, bin, ...args], { env: svc.env, encoding: 'utf8', timeout: 30_000 });
      return { stdout: run.stdout, moduleJobs: /module jobs: (true|false)/.exec(run.stderr)?.[1] };
    };
    // Node 24 sets up a module job for any entry, a bare CommonJS script's too: --version must need no
    // more than that script.
    const bareScript = join(svc.home, 'bare-script.cjs');
    writeFileSync(bareScript, "process.stdout.write('bare\\n');\n");
    const bare = jobs(bareScript, []);
    expect(bare.stdout).toBe('bare\n');
    expect(jobs(SVC_BIN, ['--version'])).toEqual({ stdout: `${JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version}\n`, moduleJobs: bare.moduleJobs });
    const nodeCaches = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
    // Node 22 and newer import the ES module bundle (their compile cache covers it); Node 20 runs its script variant.
    expect(jobs(SVC_BIN, ['task', 'list'])).toEqual({ stdout: 'no tasks\n', moduleJobs: String(nodeCaches) });
    expect(jobs(join(REPO_ROOT, 'host/bin/svc.mjs'), ['task', 'list'])).toEqual({ stdout: 'no tasks\n', moduleJobs: 'true' });
  });

  it("svc task list opens libsql without Node's ES module resolver on Node 20 (libsql's folder is looked up, not resolved through its exports map)", () => {
    const preload = join(svc.home, 'resolver-report.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`esm resolver: ${process.moduleLoadList.includes('NativeModule internal/modules/esm/resolve')}\\n`));\n");
    const run = spawnSync(process.execPath, ['-r', preload, SVC_BIN, 'task', 'list'], { env: svc.env, encoding: 'utf8', timeout: 30_000 });
    expect(run.stdout).toBe('no tasks\n');
    // Node 22 and newer import the ES module bundle, whose loader is that resolver.
    const nodeCaches = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
    expect(/esm resolver: (true|false)/.exec(run.stderr)?.[1]).toBe(String(nodeCaches));
  });

  // esbuild's __toESM copies a Node built-in's exports into a view of getters (node:fs: about a
  // hundred); a listing's modules import node:fs a dozen times.
  it("svc task list makes one view of node:fs's exports however many of its modules import it, in the scripts and in the ES module chunks", () => {
    const preload = join(svc.home, 'views-report.cjs');
    writeFileSync(
      preload,
      "const fs = require('node:fs'); const names = Object.getOwnPropertyNames; let views = 0;\n" +
        'Object.getOwnPropertyNames = function (object) { if (object === fs) views++; return names(object); };\n' +
        "process.on('exit', () => process.stderr.write(`fs views: ${views}\\n`));\n",
    );
    // SVC_BIN runs the scripts on Node 20 and the ES module chunks on Node 22 and newer; svc.mjs of the chunks runs them on any.
    for (const entry of [SVC_BIN, join(REPO_ROOT, 'host/dist/cli/svc.mjs')]) {
      const run = spawnSync(process.execPath, ['-r', preload, entry, 'task', 'list'], { env: svc.env, encoding: 'utf8', timeout: 30_000 });
      expect(run.stdout).toBe('no tasks\n');
      expect(/fs views: (\d+)/.exec(run.stderr)?.[1]).toBe('1');
    }
  });

  // An event loop that ends lets Node take V8's heap apart page by page before the process exits;
  // a command that has nothing left to run exits at once instead, with its status and its output.
  it('a command whose work is done exits through process.exit with its status, its output written', () => {
    const preload = join(svc.home, 'exit-report.cjs');
    writeFileSync(preload, "const reallyExit = process.reallyExit; process.reallyExit = (code) => { process.stderr.write(`exit called: ${code}\\n`); reallyExit(code); };\n");
    const run = (args: string[]) => spawnSync(process.execPath, ['-r', preload, SVC_BIN, ...args], { env: svc.env, encoding: 'utf8', timeout: 30_000 });
    const list = run(['task', 'list', '--json']);
    expect([list.status, list.stdout]).toEqual([0, '[]\n']);
    expect(list.stderr).toContain('exit called: 0');
    const missing = run(['task', 'show', '99']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no task with id 99');
    expect(missing.stderr).toContain('exit called: 1');
  });

  // One character beyond ASCII in a comment made Node read the whole bundle as a two-byte string:
  // about 10 ms of every start went to decoding it.
  it('the bundles a start reads are ASCII, comments included, and svc still prints what is not', async () => {
    const chunks = readdirSync(join(REPO_ROOT, 'host/dist/cli')).filter((name) => /\.(mjs|vm\.js)$/.test(name)).map((name) => `cli/${name}`);
    for (const bundle of ['svc.mjs', 'mcp.mjs', 'svc.vm.js', 'mcp.vm.js', ...chunks]) {
      const code = readFileSync(join(REPO_ROOT, 'host/dist', bundle), 'utf8');
      expect(code.match(/^.*[^\x00-\x7f].*$/m)?.[0], bundle).toBeUndefined();
    }
    // Strings keep their characters: esbuild escapes them, and Node prints them as they were.
    expect((await svc.run(['task', 'lst'])).stderr).toContain('unknown task command "lst" — did you mean');
  });

  // The whole CLI in one file made every start read it and deserialize (Node 20) or take from Node's
  // cache (22 and newer) all of it, and run its top level: a function and an export getter for every
  // module of every command. `svc` runs it split at each dynamic import (host/dist/cli).
  it("a new home's database is the build's migrated template copied in: the schema and recorded migrations of one migrated from nothing", () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-template-home-'));
    const opened: Db[] = [];
    try {
      const run = spawnSync(process.execPath, [SVC_BIN, 'workspace', 'create', 'main'], { env: { ...svc.env, SVC_HOME: home }, encoding: 'utf8', timeout: 30_000 });
      expect(run.stdout, run.stderr).toBe('workspace 1 "main" created\n');
      expect(statSync(join(home, 'svc.db')).mode & 0o777).toBe(0o600);
      // The build's file is read through a copy: opening a database sets its mode and starts its log.
      copyFileSync(join(REPO_ROOT, 'host/dist/svc-template.db'), join(home, 'template.db'));
      const [home_, template, fresh] = ['svc.db', 'template.db', 'fresh.db'].map((name) => {
        const db = openDatabase(join(home, name));
        opened.push(db);
        return db;
      }) as [Db, Db, Db];
      const schema = (db: Db) => db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all();
      const recorded = (db: Db) => db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as { version: number; name: string; applied_at: string }[];
      expect(schema(home_)).toEqual(schema(fresh));
      expect(recorded(home_).map(({ version, name }) => ({ version, name }))).toEqual(recorded(fresh).map(({ version, name }) => ({ version, name })));
      // Copied, not migrated again: the migrations were applied when the template was built.
      expect(recorded(home_)).toEqual(recorded(template));
      const setting = (db: Db, pragma: string) => (db.prepare(`PRAGMA ${pragma}`).get() as Record<string, unknown>)[pragma];
      for (const pragma of ['page_size', 'user_version', 'auto_vacuum', 'journal_mode']) expect(setting(home_, pragma), pragma).toEqual(setting(fresh, pragma));
    } finally {
      for (const db of opened) db.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  // A first `svc task list` copied the template in, started its log and shared memory, and read
  // them: a listing on a new home now reads the build's template where it is, read-only, and leaves
  // the home for the first command that writes, which copies it in as before.
  it('svc task list on a new home answers from the template as from an empty database, makes none, and the next command finds a new home', () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-template-reader-'));
    const emptyHome = mkdtempSync(join(tmpdir(), 'svc-template-empty-'));
    const dist = join(REPO_ROOT, 'host/dist');
    const templateFiles = () => readdirSync(join(dist, 'cli')).filter((name) => name.startsWith('svc-template.db')).concat(readdirSync(dist).filter((name) => name.startsWith('svc-template.db')));
    const templateBefore = templateFiles();
    const run = (svcHome: string, args: string[]) => {
      const { status, stdout, stderr } = spawnSync(process.execPath, [SVC_BIN, ...args], { env: { ...svc.env, SVC_HOME: svcHome }, encoding: 'utf8', timeout: 30_000 });
      return { status, stdout, stderr };
    };
    try {
      // An empty database made by a command that writes (it copies the template in), then emptied again.
      expect(run(emptyHome, ['workspace', 'create', 'gone']).status).toBe(0);
      expect(run(emptyHome, ['workspace', 'remove', 'gone']).status).toBe(0);
      const listings = [[], ['--json'], ['--project', 'nope'], ['--project', '1'], ['--parent', '3', '--json'], ['--status', 'bogus']];
      for (const flags of listings) {
        const answer = run(home, ['task', 'list', ...flags]);
        expect(answer, flags.join(' ')).toEqual(run(emptyHome, ['task', 'list', ...flags]));
      }
      expect(run(home, ['task', 'list', '--project', 'nope'])).toMatchObject({ status: 1, stderr: expect.stringContaining('project_not_found') });
      expect(readdirSync(home)).toEqual(['logs']);
      expect(templateFiles()).toEqual(templateBefore);
      // The next command finds a new home: the template copied in, owner-only, and what it writes read back.
      expect(run(home, ['workspace', 'create', 'main']).stdout).toBe('workspace 1 "main" created\n');
      expect(statSync(join(home, 'svc.db')).mode & 0o777).toBe(0o600);
      expect(JSON.parse(run(home, ['workspace', 'list', '--json']).stdout)).toMatchObject([{ id: 1, name: 'main' }]);
      expect(run(home, ['task', 'list'])).toMatchObject({ status: 0, stdout: 'no tasks\n' });
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(emptyHome, { recursive: true, force: true });
    }
  });

  it('svc task list reads the chunks of the CLI it runs, a fraction of the whole, and none of the command modules', () => {
    const preload = join(svc.home, 'chunks-report.cjs');
    writeFileSync(
      preload,
      [
        "const seen = []; const fs = require('node:fs'); const nodeModule = require('node:module'); const { fileURLToPath } = require('node:url');",
        "const path = (file) => (String(file).startsWith('file:') ? fileURLToPath(String(file)) : String(file));",
        // Node 20 reads each chunk's script (the launcher, host/bin/svc.cjs); 22 and newer import the ES modules.
        'const readFileSync = fs.readFileSync; fs.readFileSync = function (file, ...rest) { seen.push(path(file)); return readFileSync.call(this, file, ...rest); };',
        "if (typeof nodeModule.registerHooks === 'function') nodeModule.registerHooks({ load(url, context, next) { seen.push(path(url)); return next(url, context); } });",
        "process.on('exit', () => process.stderr.write(`read: ${JSON.stringify(seen)}\\n`));",
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['-r', preload, SVC_BIN, 'task', 'list'], { env: svc.env, encoding: 'utf8', timeout: 30_000 });
    expect(run.stdout, run.stderr).toBe('no tasks\n');
    const dist = join(REPO_ROOT, 'host/dist');
    const read = [...new Set(JSON.parse(/read: (.*)\n/.exec(run.stderr)?.[1] ?? '[]') as string[])].filter((file) => file.startsWith(`${dist}/`) && /\.(mjs|vm\.js)$/.test(file));
    const names = read.map((file) => basename(file));
    expect(read.every((file) => file.startsWith(join(dist, 'cli/'))), names.join(', ')).toBe(true);
    expect(names.some((name) => /^svc\.(mjs|vm\.js)$/.test(name))).toBe(true);
    // The one file that declares list_tasks, whose `cli` part the command is derived from, not the task group's command module.
    expect(names.some((name) => name.startsWith('list-tasks-'))).toBe(true);
    for (const other of ['task-commands-', 'host-commands-', 'gateway-commands-', 'knowledge-commands-', 'all-operations-', 'host-plugins-', 'service-client-']) {
      expect(names.filter((name) => name.startsWith(other))).toEqual([]);
    }
    const bytes = read.reduce((sum, file) => sum + statSync(file).size, 0);
    expect(bytes).toBeLessThan(statSync(join(dist, 'svc.mjs')).size * 0.4);
    // Node 20 reads the chunks' scripts, those always loaded together as one (the entry's and every
    // chunk it imports statically are one script): 38 files when each chunk was one.
    if (names.every((name) => name.endsWith('.vm.js'))) expect(names.length, names.join(', ')).toBeLessThanOrEqual(8);
  });

  // Some sixty operations' zod schemas turned into JSON Schema were a tenth of `svc mcp`'s start:
  // the build converts them once, with the adapter's own toolListing.
  it('svc mcp answers tools/list with listings the build converted, equal to converting the declarations now', async () => {
    expect(readFileSync(join(REPO_ROOT, 'host/dist/mcp.mjs'), 'utf8')).toMatch(/PREBUILT_TOOL_LISTINGS = \{\s*"[a-z_]+": \{/);
    const mcp = await connectSvcMcp(svc);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.length).toBeGreaterThan(50);
      for (const tool of tools) expect(tool).toEqual(toolListing(ALL_OPERATIONS.get(tool.name)!));
    } finally {
      await mcp.close();
    }
  });

  // The operations themselves (their zod schemas, the harness) were most of what `svc mcp` evaluated
  // before its first answer: it now answers tools/list from the build's listing for the profile and
  // loads them after. Whatever the profile, the list is the one the declarations make, in their
  // order, and a call made at once is served or refused as before.
  it('svc mcp lists each profile\'s tools from the build as the declarations place them, and serves a call at once', async () => {
    expect(readFileSync(join(REPO_ROOT, 'host/dist/mcp.mjs'), 'utf8')).toMatch(/PREBUILT_PROFILES = \{\s*"tools": \{/);
    const definition = new CapabilityDefinition(ALL_OPERATIONS.list());
    for (const profile of MCP_PROFILES) {
      const mcp = await connectSvcMcp(svc, { SVC_MCP_PROFILE: profile });
      try {
        const { tools } = await mcp.client.listTools();
        expect(tools.map((tool) => tool.name), profile).toEqual(definition.toolsOf(profile).map((tool) => tool.name));
        if (profile === 'full') expect(await mcp.call('list_workspaces')).toEqual({ items: [] });
        if (profile === 'gateway-query') expect((await mcp.fail('create_task', { title: 'x' })).code).toBe('unknown_tool');
      } finally {
        await mcp.close();
      }
    }
  });
});

