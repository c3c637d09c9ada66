// The CLI, the HTTP routes and the operation declarations agree: every operation is declared once,
// every route and command that acts on one goes through its declaration, and every declaration
// is reachable. A route or a command added beside the declarations fails here.
import { Writable } from 'node:stream';
import type Router from '@koa/router';
import { describe, expect, test } from 'vitest';
import type { CliIo } from '../../src/adapters/cli/cli-io.js';
import { ALL_COMMANDS } from '@svc-org/app/cli/all-commands';
import { runCli } from '@svc-org/app/run-cli';
import { createHttpApp, type ApiContext } from '../../src/adapters/http/index.js';
import { Logger } from '../../src/platform/logging/index.js';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { OperationInvoker } from '../../src/operation-framework/index.js';

// The one registry, as `svc serve` registers it and the CLI's commands take from it.
const DECLARED = ALL_OPERATIONS.list();

// The names fixed for the CLI, HTTP and MCP alike: a pin of published tool names, not a list the
// faces are built from. MCP clients, chats and scripts call these operations by name, so renaming one
// must fail here and be changed on purpose. The one list of names test/operation-lists.test.ts allows.
const FIXED_NAMES = [
  'list_workspaces', 'get_workspace', 'create_workspace', 'update_workspace', 'delete_workspace',
  'list_projects', 'get_project', 'create_project', 'update_project', 'delete_project',
  'list_tasks', 'get_task', 'create_task', 'update_task', 'delete_task', 'move_task', 'set_task_labels',
  'list_labels', 'create_label', 'update_label', 'delete_label',
  'list_executions', 'get_execution',
  'start_task_execution', 'get_task_terminal_output', 'send_task_terminal_input', 'get_task_terminal_status', 'close_task_terminal', 'resume_task_terminal',
  'report_stop_hook',
  'list_connections', 'get_connection', 'create_connection', 'update_connection', 'delete_connection',
];

// Groups whose operations read and write records only: none of them needs the service's live terminals.
const RECORD_GROUPS = new Set(['workspace', 'project', 'label', 'execution', 'connection', 'extension']);

// Routes that are not operations, each with the reason.
const ADAPTER_ROUTES: Record<string, string> = {
  'GET /api/health': 'liveness of the service itself',
  'GET /api/internal/terminal/:taskId/stream': 'a raw byte stream for `svc task attach`, not a JSON answer',
  'POST /api/internal/operations/:name': 'the localhost bridge that runs any operation in the service',
};

// Commands that parse their own arguments and call host services directly (not operations yet).
// `open` mints a browser login link (no operation); `harness`, `gateway` and `channel` parse their
// own arguments over the harness module's operations, which the harness mounts itself; `catalog` (build, keygen, serve) works on a publisher's files, not on a host.
const UNDECLARED_GROUPS = new Set(['query', 'session', 'models', 'serve', 'mcp', 'completion', 'doctor', 'ext', 'config', 'integration', 'open', 'harness', 'gateway', 'channel', 'catalog']);

function mountedRoutes(): string[] {
  const invoker = new OperationInvoker({ registry: ALL_OPERATIONS, services: () => Promise.reject(new Error('not used')), caller: { via: 'http' } });
  const api = { invoker, token: 'test-token', logger: new Logger({ stderrLevel: 'error' }), hostVersion: '0.0.0', catalog: {} } as unknown as ApiContext;
  const app = createHttpApp(api);
  const router = app.middleware.map((m) => (m as { router?: Router }).router).find(Boolean)!;
  return router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => `${method} ${layer.path}`));
}

function capture(): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const sink = (append: (text: string) => void) => new Writable({ write: (chunk, _enc, done) => (append(String(chunk)), done()) });
  const io = { stdin: process.stdin, stdout: sink((t) => (out += t)), stderr: sink((t) => (err += t)), env: { ...process.env, NO_COLOR: '1' }, cwd: process.cwd() } as unknown as CliIo;
  return { io, out: () => out, err: () => err };
}

describe('operation declarations', () => {
  test('every fixed operation name is declared, once, in snake_case', () => {
    const names = DECLARED.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of FIXED_NAMES) expect(names, name).toContain(name);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  test('operations that touch live terminals run in the service, and those of the record groups run anywhere', () => {
    for (const op of DECLARED.filter((candidate) => RECORD_GROUPS.has(candidate.group) || ['terminal', 'hooks', 'review'].includes(candidate.group))) {
      // Terminal operations touch live PTYs; the turn hooks move a live terminal's turn state.
      const live = op.group === 'terminal' || op.group === 'hooks';
      // Merge and discard end a task's work: they stop its live terminal, in the service when it runs.
      const endsWork = op.name === 'merge_task' || op.name === 'discard_task_worktree';
      if (live) expect(op.runsIn, op.name).toBe('service');
      else if (endsWork) expect(op.runsIn, op.name).toBe('service_if_running');
      else if (RECORD_GROUPS.has(op.group)) expect(op.runsIn, op.name).toBe('any');
    }
  });
});

describe('HTTP', () => {
  const routes = mountedRoutes();

  test('every mounted route is a declared operation, an adapter route with a reason, or extension management', () => {
    const declared = new Set(DECLARED.filter((op) => op.http).map((op) => `${op.http!.method} ${op.http!.path}`));
    const stray = routes.filter((route) => !declared.has(route) && !(route in ADAPTER_ROUTES));
    expect(stray).toEqual([]);
  });

  test("every operation's declared route is mounted, once", () => {
    for (const op of DECLARED.filter((candidate) => candidate.http)) {
      const route = `${op.http!.method} ${op.http!.path}`;
      expect(routes.filter((mounted) => mounted === route), route).toHaveLength(1);
    }
    for (const route of Object.keys(ADAPTER_ROUTES)) expect(routes, route).toContain(route);
  });
});

describe('CLI', () => {
  test('every command either runs a declared operation or belongs to a group that parses its own', () => {
    const stray = ALL_COMMANDS.filter((command) => !command.operation && !command.alsoUses?.length && !UNDECLARED_GROUPS.has(command.group));
    expect(stray.map((command) => `${command.group} ${command.name}`)).toEqual([]);
    for (const command of ALL_COMMANDS) {
      if (command.operation) expect(DECLARED, `${command.group} ${command.name}`).toContain(command.operation);
    }
  });

  test('every command that prints a record takes --json', () => {
    const without = ALL_COMMANDS.filter((command) => command.operation && !command.json);
    expect(without.map((command) => `${command.group} ${command.name}`)).toEqual([]);
  });

  test.each(ALL_COMMANDS.map((command) => [[command.group, command.name].filter(Boolean).join(' '), command] as const))(
    'svc %s --help prints its description, options and an example',
    async (_label, command) => {
      const { io, out } = capture();
      const status = await runCli([command.group, ...(command.name ? [command.name] : []), '--help'], io);
      expect(status).toBe(0);
      const text = out();
      expect(text).toContain(command.description ?? command.operation!.description);
      expect(text).toMatch(/usage: svc /);
      expect(text).toContain('--help');
      expect(text).toMatch(/examples?:\n {2}svc /);
    },
  );

  test.each([...new Set(ALL_COMMANDS.filter((command) => command.name !== '').map((command) => command.group))])('svc %s --help lists the commands of the group', async (group) => {
    const { io, out } = capture();
    expect(await runCli([group, '--help'], io)).toBe(0);
    // A subcommand (`svc mcp token`) is named in its group's command's own usage.
    for (const command of ALL_COMMANDS.filter((candidate) => candidate.group === group)) expect(out()).toContain(command.subcommand ? `[${command.name} ` : `  ${command.name}`);
  });

  test('an unknown command or subcommand is a usage error with "did you mean"', async () => {
    const group = capture();
    expect(await runCli(['tsk', 'list'], group.io)).toBe(2);
    expect(group.err()).toContain('did you mean `svc task`?');
    const sub = capture();
    expect(await runCli(['connection', 'lsit'], sub.io)).toBe(2);
    expect(sub.err()).toContain('did you mean `svc connection list`?');
  });
});
