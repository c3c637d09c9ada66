// The harness is a plugin of the host (host/src/host-plugin.ts): the host opens, migrates, places and
// starts it through that contract, reads none of its tables, and the harness keeps no state of its own
// beside what the host holds for it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { harnessPlugin } from '@svc-org/harness';
import { harnessOf } from '@svc-org/harness/plugin/harness-state';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { ALL_COMMANDS, DECLARED_COMMAND_MODULES } from '@svc-org/app/cli/all-commands';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { sourceFiles } from './support/import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');
const sources = (dir: string) => sourceFiles(join(ROOT, dir)).map((file) => ({ path: relative(ROOT, file), text: readFileSync(file, 'utf8') }));

describe('the harness keeps to its contract', () => {
  test('the host reads and writes none of the harness tables: what it needs of the harness, the harness gives it', () => {
    const naming = sources('host/src').filter((file) => /\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+harness_/.test(file.text));
    expect(naming.map((file) => file.path)).toEqual([]);
  });

  test('the harness keeps no state keyed by the database: its stores are made once, when the host opens', () => {
    expect(sources('harness/src').filter((file) => /new WeakMap\b/.test(file.text)).map((file) => file.path)).toEqual([]);
  });

  test('no harness operation runs another through an invoker of its own', () => {
    const invoking = sources('harness/src').filter((file) => /\brunOperation\b|\.handler\(/.test(file.text));
    expect(invoking.map((file) => file.path)).toEqual([]);
  });

  test("continue_bound_task's SQL is in the inbound store", () => {
    const file = readFileSync(join(ROOT, 'harness/src/routing/continue-bound-task.ts'), 'utf8');
    expect(file).not.toMatch(/\.prepare\(|['"`](SELECT|UPDATE|INSERT|DELETE)\b/);
  });

  test('its operations are one array, and the one registry holds each of them', () => {
    const names = new Set(harnessPlugin.operations.map((operation) => operation.name));
    expect(names.size).toBe(harnessPlugin.operations.length);
    expect(harnessPlugin.operations.filter((operation) => ALL_OPERATIONS.get(operation.name) !== operation).map((operation) => operation.name)).toEqual([]);
  });

  test('its CLI command modules are placed in the command table as it declares them, and hold every command that runs its operations', async () => {
    const modules = DECLARED_COMMAND_MODULES.map((entry) => entry.module);
    for (const entry of harnessPlugin.cli ?? []) expect(modules.indexOf(entry.module), entry.module).toBeGreaterThan(modules.indexOf(entry.after));
    const declared = new Set((await Promise.all((harnessPlugin.cli ?? []).map((entry) => entry.load()))).flat());
    const harness = new Set(harnessPlugin.operations);
    const elsewhere = ALL_COMMANDS.filter((command) => !declared.has(command) && [command.operation, ...(command.alsoUses ?? [])].some((operation) => operation && harness.has(operation)));
    expect(elsewhere.map((command) => `${command.group} ${command.name}`)).toEqual([]);
  });

  test('every CLI command that runs a harness operation opens the host with the plugins', () => {
    const harness = new Set(harnessPlugin.operations);
    const unopened = ALL_COMMANDS.filter((command) => [command.operation, ...(command.alsoUses ?? [])].some((operation) => operation && harness.has(operation)) && command.plugins !== true);
    expect(unopened.map((command) => `${command.group} ${command.name}`)).toEqual([]);
  });
});

describe('a host opened with the harness', () => {
  let home: string | undefined;
  let services: HostServices | undefined;
  afterEach(async () => {
    await services?.close();
    services = undefined;
    if (home) rmSync(home, { recursive: true, force: true });
  });
  const open = async (plugins: readonly (typeof harnessPlugin)[]) => {
    home = mkdtempSync(join(tmpdir(), 'svc-harness-plugin-'));
    services = await openHostServices({ env: { ...process.env, SVC_HOME: home, SVC_LOG_LEVEL: 'error' }, extensions: false, plugins });
    return services;
  };
  const tables = (opened: HostServices) =>
    (opened.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'harness%' ORDER BY name").all() as { name: string }[]).map((row) => row.name);

  test('has every harness table and store before any operation runs', async () => {
    const opened = await open([harnessPlugin]);
    expect(tables(opened)).toEqual(expect.arrayContaining(['harness_approvals', 'harness_gateway_inbound', 'harness_gateways', 'harness_mcp_tokens', 'harness_messages']));
    const applied = new Set((opened.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version));
    expect(harnessPlugin.migrations.filter((migration) => !applied.has(migration.version)).map((migration) => migration.name)).toEqual([]);
    const state = harnessOf(opened);
    expect(state.gateways.list()).toEqual([]);
    expect(state.mcpTokens.list()).toEqual([]);
    // The same stores for every handler of this host: made once.
    expect(harnessOf(opened)).toBe(state);
  });

  test('fills the ports the host declares: a project Workbench is known to the host', async () => {
    const opened = await open([harnessPlugin]);
    const workspace = opened.domain.workspaces.create({ name: 'w' });
    const project = opened.domain.projects.create({ workspaceId: workspace.id, name: 'p', repoPath: home! });
    const task = opened.domain.tasks.create({ projectId: project.id, title: 'a task' });
    const workbench = harnessOf(opened).workbench.ensureWorkbench(project.id);
    expect(opened.ports.isWorkbench(task.id)).toBe(false);
    expect(opened.ports.isWorkbench(workbench)).toBe(true);
  });

  test('a host opened without it has none of its tables, and a harness store asked of it is refused', async () => {
    const opened = await open([]);
    expect(tables(opened)).toEqual([]);
    expect(() => harnessOf(opened)).toThrow(expect.objectContaining({ code: 'plugin_not_opened' }));
    expect(opened.ports.isWorkbench(1)).toBe(false);
  });

  test("answers the MCP adapter's question who a caller is: gateway credentials, channels and bearer tokens", async () => {
    const opened = await open([harnessPlugin]);
    const callers = opened.plugins.mcpCallers();
    expect(() => callers.verifyGatewayCredential(opened, 'svcg_not-issued')).toThrow(expect.objectContaining({ code: 'gateway_credential_invalid' }));
    expect(callers.activeChannels(opened)).toEqual([]);
    const { token, record } = harnessOf(opened).mcpTokens.create({ name: 'phone', profile: 'assistant' });
    expect(callers.authenticateToken(opened, token)).toEqual({ tokenId: record.id, name: 'phone', profile: 'assistant' });
    callers.markTokenUsed(opened, record.id);
    expect(harnessOf(opened).mcpTokens.list()[0]!.lastUsedAt).not.toBeNull();
    expect(() => callers.authenticateToken(opened, 'svcm_unknown')).toThrow(expect.objectContaining({ code: 'unauthorized' }));
  });

  test('a host opened without it refuses every gateway credential and bearer token, and its gateway callers read no project', async () => {
    const opened = await open([]);
    const callers = opened.plugins.mcpCallers();
    expect(() => callers.verifyGatewayCredential(opened, 'svcg_anything')).toThrow(expect.objectContaining({ code: 'gateway_credential_invalid' }));
    expect(() => callers.authenticateToken(opened, 'svcm_anything')).toThrow(expect.objectContaining({ code: 'unauthorized' }));
    expect(callers.activeChannels(opened)).toEqual([]);
  });
});
