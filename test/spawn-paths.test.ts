// Every place svc's own code can start a process, found from the sources: each file that imports a
// process API (node:child_process, node-pty) or the host's process supervisor is named below with
// what it starts. A file not named fails this test, so a new way to start a process is reviewed
// here; what a provider names (a session, a Host Context spawn, the CLI's version probe) must go
// through its gate, which the checks below read from the code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { HostMethods } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** The code that runs inside svc (the SDK and the providers run inside a provider, under its grant). */
const SCANNED = ['host/src', 'app/src', 'harness/src', 'harness/hooks', 'catalog/src', 'extension-format/src'];
const PROCESS_MODULES = new Set(['child_process', 'node:child_process', 'node-pty', '@lydell/node-pty']);

type Who = 'provider' | 'host' | 'person';
/** Each file that starts processes (or could), with whose command it runs. */
const PROCESS_STARTERS: Record<string, { who: Who; starts: string }> = {
  'host/src/features/terminals/spawn-pty.ts': { who: 'provider', starts: "a task terminal's or `svc session`'s process: only a session the session gate checked" },
  'host/src/features/terminals/holder/terminal-holder.ts': { who: 'provider', starts: "a task terminal's process in the terminal holder: only what the service sent it, built by ptyLaunch behind the session gate" },
  'host/src/features/terminals/holder/holder-registry.ts': { who: 'host', starts: "the terminal holder: Node with svc's own host/dist/terminal-holder.mjs" },
  'host/src/platform/processes/process-supervisor.ts': { who: 'host', starts: 'what its callers pass (SUPERVISOR_CALLERS)' },
  'host/src/features/extensions/preflight/probe-cli-version.ts': { who: 'provider', starts: "the CLI's version probe, only once process:spawn is confirmed" },
  'host/src/features/extensions/runtime/process-pool.ts': { who: 'host', starts: "Node with svc's hardened bootstrap for a provider in process mode" },
  'host/src/features/extensions/runtime/provider-root-holders.ts': { who: 'host', starts: "unshare with fixed arguments: the holder of a hardened provider's read-only root" },
  'host/src/features/extensions/runtime/provider-snapshot.ts': { who: 'host', starts: "Node with svc's own host/dist/provider-snapshot.cjs: building and checking a hardened provider process's start-up snapshot" },
  'host/src/features/extensions/runtime/isolation-probe.ts': { who: 'host', starts: "fixed commands probing the machine's namespaces" },
  'host/src/features/extensions/runtime/tag-child-processes.ts': { who: 'host', starts: "nothing: tags the children a worker provider's own code starts (child_process itself only where Node's spawn bindings cannot be reached)" },
  'host/src/platform/processes/kill-process-tree.ts': { who: 'host', starts: 'ps' },
  'host/src/platform/processes/tagged-processes.ts': { who: 'host', starts: 'ps' },
  'host/src/platform/processes/process-start-time.ts': { who: 'host', starts: 'ps' },
  'harness/src/routing/provision-remote-project.ts': { who: 'host', starts: 'git clone' },
  'harness/src/gateways/hermes-client.ts': { who: 'person', starts: 'the Hermes CLI of the gateway the person configured' },
  'catalog/src/prepare-provider.ts': { who: 'person', starts: "a publisher's declared build steps (svc catalog build)" },
  'catalog/src/serve-catalog.ts': { who: 'host', starts: 'git (svc catalog serve)' },
  'catalog/src/select-declarations.ts': { who: 'host', starts: 'git (svc catalog build)' },
};

/** Who hands the process supervisor what to run. */
const SUPERVISOR_CALLERS: Record<string, { who: Who; starts: string }> = {
  'host/src/features/extensions/runtime/call-processes.ts': { who: 'provider', starts: "a provider's $process.spawn, gated by process:spawn" },
  'host/src/features/worktrees/git-runner.ts': { who: 'host', starts: 'git' },
  'host/src/features/worktrees/run-setup-command.ts': { who: 'person', starts: "the project's set-up command" },
};

/** Each caller of the session gate's entry (ExtensionService.buildSessionProcess), and the command test/security/session-gate.test.ts drives it by. */
const SESSION_STARTERS: Record<string, string> = {
  'host/src/features/terminals/terminal-manager.ts': "'task', 'start'",
  'host/src/adapters/cli/commands/session-command.ts': "['session',",
};

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (/\.(ts|tsx|mts|mjs|js|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative(ROOT, path));
    }
  };
  for (const dir of SCANNED) walk(join(ROOT, dir));
  return files.sort();
}

const FILES = sourceFiles();
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Whether a file uses a process module for more than its types (imports, re-exports, `import()`, `require()`, `process.getBuiltinModule()`). */
function usesProcessModule(file: string): boolean {
  const source = ts.createSourceFile(file, text(file), ts.ScriptTarget.Latest, true);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && PROCESS_MODULES.has(node.moduleSpecifier.text)) {
      const clause = node.importClause;
      const typeOnly = clause?.isTypeOnly || (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found = true;
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && PROCESS_MODULES.has(node.moduleSpecifier.text) && !node.isTypeOnly) {
      found = true;
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0]!) && PROCESS_MODULES.has(node.arguments[0].text)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) found = true;
      if (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'getBuiltinModule') found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('every path that starts a process', () => {
  test('each file that imports a process API is named with what it starts', () => {
    const found = FILES.filter(usesProcessModule);
    expect(found, 'a file that starts processes is missing from PROCESS_STARTERS (or one listed no longer does)').toEqual(Object.keys(PROCESS_STARTERS).sort());
  });

  test("each user of the host's process supervisor is named with whose command it runs", () => {
    const found = FILES.filter((file) => file !== 'host/src/platform/processes/process-supervisor.ts' && /\bProcessSupervisor\b/.test(text(file)) && !/^host\/src\/platform\/processes\/index\.ts$/.test(file));
    expect(found).toEqual(Object.keys(SUPERVISOR_CALLERS).sort());
  });

  test("a terminal starts only what the session gate let through, and the gate stands between the provider's answer and the terminal", () => {
    // The PTY is opened in one place, after the gate's mark is checked.
    const ptyFile = text('host/src/features/terminals/spawn-pty.ts');
    expect(ptyFile.match(/\bpty\.spawn\(/g)).toHaveLength(1);
    expect(ptyFile.indexOf('isGatedSessionProcess(session)')).toBeGreaterThan(-1);
    expect(ptyFile.indexOf('isGatedSessionProcess(session)')).toBeLessThan(ptyFile.indexOf('pty.spawn('));
    // The adapter's buildSessionProcess is called in one place, whose answer goes through the gate.
    const adapterCalls = FILES.filter((file) => /runtime\.call\(\s*[\w.]+,\s*'buildSessionProcess'/.test(text(file)));
    expect(adapterCalls).toEqual(['host/src/features/extensions/extension-calls.ts']);
    const calls = text('host/src/features/extensions/extension-calls.ts');
    const method = calls.slice(calls.indexOf('async buildSessionProcess('), calls.indexOf('\n  }\n', calls.indexOf('async buildSessionProcess(')));
    expect(method.indexOf('requireSessionPermission(grant)')).toBeGreaterThan(-1);
    expect(method.indexOf('requireSessionPermission(grant)')).toBeLessThan(method.indexOf("'buildSessionProcess'"));
    expect(method).toMatch(/return gateSessionProcess\(grant, description, /);
    // The terminal holder starts what the service sends it over its private socket; the service
    // builds that with ptyLaunch, which refuses a session the gate did not mark.
    expect(ptyFile.indexOf('isGatedSessionProcess(session)')).toBeLessThan(ptyFile.indexOf('export function spawnPty('));
    const manager = text('host/src/features/terminals/terminal-manager.ts');
    const held = manager.slice(manager.indexOf('private spawnHeld('), manager.indexOf('\n  }\n', manager.indexOf('private spawnHeld(')));
    expect(held).toMatch(/holders\.spawn\(\{\s*\.\.\.ptyLaunch\(spec, /);
    expect(FILES.filter((file) => /\.spawn\(\{\s*\.\.\.ptyLaunch\(|holders\.spawn\(/.test(text(file)))).toEqual(['host/src/features/terminals/terminal-manager.ts']);
    // Every file that opens a terminal takes its session from the gated entry.
    const ptyCallers = FILES.filter((file) => file !== 'host/src/features/terminals/spawn-pty.ts' && /\bspawnPty\(|\?\? spawnPty\)\(/.test(text(file)));
    expect(ptyCallers).toEqual(Object.keys(SESSION_STARTERS).sort());
    for (const file of ptyCallers) expect(text(file), file).toMatch(/\.buildSessionProcess\(/);
  });

  test('each caller of the session gate is driven by the hostile-provider test', () => {
    const callers = FILES.filter((file) => !file.startsWith('host/src/features/extensions/') && /\.buildSessionProcess\(/.test(text(file)));
    expect(callers, 'a new path starts sessions: add it to SESSION_STARTERS and to test/security/session-gate.test.ts').toEqual(Object.keys(SESSION_STARTERS).sort());
    const e2e = text('test/security/session-gate.test.ts');
    for (const [file, command] of Object.entries(SESSION_STARTERS)) expect(e2e, file).toContain(command);
  });

  test("a provider's Host Context spawn needs process:spawn and gets the same filtered environment as a session", () => {
    expect(HostMethods['$process.spawn'].permission).toBe('process:spawn');
    const channel = text('host/src/features/extensions/runtime/call-processes.ts');
    expect(channel).toMatch(/filterProviderEnvPatch\(spec\.envPatch\)/);
    expect(text('host/src/platform/processes/session-gate.ts')).toMatch(/filterProviderEnvPatch\(description\.envPatch\)/);
    // The version probe runs only when the caller asks for it, which only a confirmed process:spawn does.
    expect(text('host/src/features/extensions/preflight/check-cli-dependency.ts')).toMatch(/if \(options\.cliProbe !== 'run'\) return/);
    for (const [file, entry] of Object.entries({ ...PROCESS_STARTERS, ...SUPERVISOR_CALLERS })) expect(entry.starts, file).not.toBe('');
  });
});
