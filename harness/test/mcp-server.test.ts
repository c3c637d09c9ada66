import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices } from '@svc-org/host/host-services';
import { mintTaskCredential } from '@svc-org/host/features/terminals';
import { connectSvcMcp, type SvcMcp } from '../../test/support/svc-mcp-client.js';
import { createSvcSandbox, SVC_BIN, type SvcSandbox } from '../../test/support/svc-process.js';
import { CapabilityDefinition } from '@svc-org/host/adapters/mcp';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { MCP_PROFILES, type McpProfile } from '@svc-org/host/operation-framework';
import { harnessPlugin } from '../src/feature.js';

/** What the declarations say each profile serves: the registry's operations, placed by the capability definition. */
const DEFINITION = new CapabilityDefinition(ALL_OPERATIONS.list());
const declaredTools = (profile: McpProfile) => DEFINITION.toolsOf(profile).map((tool) => tool.name);

let svc: SvcSandbox;
const open: SvcMcp[] = [];
async function mcp(env: Record<string, string> = {}): Promise<SvcMcp> {
  const connected = await connectSvcMcp(svc, env);
  open.push(connected);
  return connected;
}

beforeAll(() => {
  svc = createSvcSandbox();
});
afterAll(async () => {
  for (const client of open) await client.close().catch(() => undefined);
  svc.cleanup();
});

describe('svc mcp profiles', () => {
  test.each([...MCP_PROFILES])('tools/list of profile %s shows exactly the tools its declarations place there', async (profile) => {
    const client = await mcp(profile === 'full' ? {} : { SVC_MCP_PROFILE: profile });
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(declaredTools(profile).sort());
    await client.close();
  });

  describe('what the profiles hold, as rules over the declarations', () => {
    const operations = ALL_OPERATIONS.list();
    const listed = (profile: McpProfile) => DEFINITION.toolsOf(profile);

    test('an operation that says `mcp: false` is a tool of no profile; every other operation is a tool of full', () => {
      const closed = operations.filter((operation) => operation.mcp === false).map((operation) => operation.name);
      expect(closed.length).toBeGreaterThan(0);
      for (const profile of MCP_PROFILES) expect(declaredTools(profile).filter((name) => closed.includes(name)), profile).toEqual([]);
      expect(declaredTools('full').sort()).toEqual(operations.filter((operation) => operation.mcp !== false).map((operation) => operation.name).sort());
    });

    /** The tools of a gateway profile that neither read, nor answer for a named sender, nor are the gateway's own. */
    const strayGatewayTools = (definition: CapabilityDefinition, profile: 'gateway' | 'gateway-query') =>
      definition
        .toolsOf(profile)
        .filter((tool) => !tool.readOnly && !definition.needsSender(profile, tool.name) && !['gateway', 'operations'].includes(definition.surfaceOf(tool)))
        .map((tool) => tool.name);

    test("a gateway profile's tools read, answer for a named sender, or are the gateway's own", () => {
      for (const profile of ['gateway', 'gateway-query'] as const) expect(strayGatewayTools(DEFINITION, profile), profile).toEqual([]);
      expect(listed('gateway-query').filter((tool) => !tool.readOnly).map((tool) => tool.name)).toEqual([]);
      // Every read of the gateway profiles says how it keeps to the caller's projects.
      expect(listed('gateway').filter((tool) => tool.readOnly && !tool.readScope).map((tool) => tool.name)).toEqual([]);
    });

    test('the task-bound profile holds only operations that declare their reach; assistant and task change no gateway', () => {
      expect(listed('task').filter((tool) => !tool.reach).map((tool) => tool.name)).toEqual([]);
      for (const profile of ['assistant', 'task'] as const) {
        expect(listed(profile).filter((tool) => DEFINITION.surfaceOf(tool) === 'operations').map((tool) => tool.name), profile).toEqual([]);
      }
    });

    test('a rule breaks when a declaration breaks it', () => {
      const write = operations.find((operation) => operation.name === 'delete_task')!;
      const widened = new CapabilityDefinition(operations.map((operation) => (operation === write ? { ...operation, mcp: { alsoIn: ['gateway'] as McpProfile[] } } : operation)));
      expect(strayGatewayTools(widened, 'gateway')).toEqual(['delete_task']);
    });
  });

  test('the gateway profile refuses reply_to_ask without a named sender (owner_required), whoever the task is', async () => {
    // A gateway's own model (no credential) is read-only: it learns that first.
    const model = await mcp({ SVC_MCP_PROFILE: 'gateway' });
    expect(await model.fail('reply_to_ask', { taskId: 1, reply: 'yes' })).toMatchObject({ code: 'gateway_credential_required' });
    await model.close();
    // The gateway's plugin, with its credential, still names the sender it answers for.
    expect((await svc.run(['gateway', 'add', 'relay-owner', '--kind', 'hermes'])).code).toBe(0);
    const issued = await svc.run(['gateway', 'credential', 'relay-owner', '--json']);
    expect(issued.code).toBe(0);
    const plugin = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: JSON.parse(issued.stdout).credential });
    expect(await plugin.fail('reply_to_ask', { taskId: 1, reply: 'yes' })).toMatchObject({ code: 'owner_required' });
    await plugin.close();
    expect((await svc.run(['gateway', 'remove', 'relay-owner'])).code).toBe(0);
  });

  test('every tool carries an object input schema, an output schema, annotations and a description', async () => {
    const client = await mcp();
    const { tools } = await client.client.listTools();
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description!.length, tool.name).toBeGreaterThan(20);
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      if (tool.annotations!.readOnlyHint) expect(tool.annotations!.destructiveHint, tool.name).toBe(false);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('list_tasks')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('delete_task')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('set_goal_mode')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(byName.get('create_task')!.inputSchema.required).toEqual(expect.arrayContaining(['projectId', 'title']));
  });

  test('an unknown SVC_MCP_PROFILE fails startup with a clear message and serves nothing', async () => {
    const child = spawn(process.execPath, [SVC_BIN, 'mcp'], { env: { ...svc.env, SVC_MCP_PROFILE: 'admin' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('SVC_MCP_PROFILE="admin" is not a profile; use one of full, assistant, task, gateway, gateway-query');
  });

  test('svc mcp --help explains itself instead of serving; stray arguments are a usage error', async () => {
    const help = await svc.run(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('SVC_MCP_PROFILE  full (default) | assistant | task | gateway | gateway-query');
    const stray = await svc.run(['mcp', 'serve']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('svc mcp takes no arguments (got serve)');
  });

  test('a tool outside the profile is refused exactly like a tool that does not exist', async () => {
    const client = await mcp({ SVC_MCP_PROFILE: 'gateway-query' });
    const outside = await client.fail('create_task', { projectId: 1, title: 'x' });
    const unknown = await client.fail('no_such_tool', {});
    expect(outside).toEqual({ code: 'unknown_tool', message: 'Tool create_task not found' });
    expect(unknown).toEqual({ code: 'unknown_tool', message: 'Tool no_such_tool not found' });
    // The gateway profile has the read-only core tools only.
    const gateway = await mcp({ SVC_MCP_PROFILE: 'gateway' });
    expect((await gateway.fail('delete_workspace', { id: 1 })).code).toBe('unknown_tool');
    await client.close();
    await gateway.close();
  });
});

describe('svc mcp tools', () => {
  let client: SvcMcp;
  let repo: string;
  let projectId: number;

  beforeAll(async () => {
    client = await mcp();
    repo = join(svc.home, 'billing-repo');
    mkdirSync(join(repo, 'docs'), { recursive: true });
    mkdirSync(join(repo, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(repo, 'README.md'), '# Billing\n\nInvoices are rendered by the invoice renderer in src/render.ts.\n');
    writeFileSync(join(repo, 'docs', 'deploy.md'), 'Deployment: run `make release` and then tag the commit with the version.\n');
    writeFileSync(join(repo, 'node_modules', 'dep', 'index.js'), 'release release release tag tag\n');
    const workspace = await client.call('create_workspace', { name: 'acme' });
    projectId = (await client.call('create_project', { workspaceId: workspace.id, name: 'billing', repoPath: repo })).id;
    const other = join(svc.home, 'web-repo');
    mkdirSync(other);
    writeFileSync(join(other, 'index.html'), '<h1>Landing page</h1>\n');
    await client.call('create_project', { workspaceId: workspace.id, name: 'website', repoPath: other });
  });

  test('a malformed call gets a schema error naming the field, and the server keeps serving', async () => {
    const error = await client.fail('create_task', { projectId, title: 42, colour: 'red' });
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('title');
    expect(error.message).toContain('colour');
    expect((await client.call('list_workspaces')).items.map((w: { name: string }) => w.name)).toEqual(['acme']);
  });

  test('identify_project places a path, a named project and a described one', async () => {
    expect(await client.call('identify_project', { path: join(repo, 'docs', 'deploy.md') })).toMatchObject({ project: { id: projectId, name: 'billing' }, matchedBy: 'path' });
    expect(await client.call('identify_project', { text: 'Is the website down?' })).toMatchObject({ project: { name: 'website' }, matchedBy: 'name' });
    const described = await client.call('identify_project', { text: 'who renders the invoices?' });
    expect(described).toMatchObject({ project: { id: projectId }, matchedBy: 'search' });
    expect((await client.fail('identify_project', {})).code).toBe('invalid_request');
  });

  test('ask_project_knowledge answers from facts, notes and repository files, skipping dependencies', async () => {
    await client.call('manage_project_facts', { action: 'set', projectId, key: 'release command', value: 'make release' });
    const note = await client.call('manage_notes', { action: 'create', projectId, title: 'Release checklist', body: 'Bump the version before the release tag.' });
    const answer = await client.call('ask_project_knowledge', { projectId, question: 'How do I release and tag a version?' });
    expect(answer.facts).toEqual([expect.objectContaining({ key: 'release command', value: 'make release' })]);
    const sources = answer.passages.map((p: { kind: string; path: string | null; refId: number | null }) => (p.kind === 'file' ? p.path : `${p.kind}:${p.refId}`));
    expect(sources).toContain('docs/deploy.md');
    expect(sources).toContain(`note:${note.note.id}`);
    expect(sources.some((source: string) => source?.startsWith('node_modules'))).toBe(false);
    expect(answer.passages.find((p: { path: string }) => p.path === 'docs/deploy.md').snippet).toContain('[release]');

    // A changed file is read again; a removed one disappears.
    writeFileSync(join(repo, 'docs', 'deploy.md'), 'Deployment is automatic on merge.\n');
    const again = await client.call('ask_project_knowledge', { projectId, question: 'automatic merge' });
    expect(again.passages[0]).toMatchObject({ kind: 'file', path: 'docs/deploy.md' });
  });

  test('a read-only profile reads notes with list_notes and get_note and cannot write them', async () => {
    const note = (await client.call('manage_notes', { action: 'create', projectId, title: 'Read-only reader', body: 'kept by the assistant' })).note;
    // The gateway profile is read-only for core records, within the projects its channel is scoped to.
    expect((await svc.run(['gateway', 'add', 'notes-reader', '--kind', 'hermes'])).code).toBe(0);
    expect((await svc.run(['channel', 'add', 'notes-chat', '--gateway', 'notes-reader', '--platform', 'telegram', '--to', '4242', '--owner', '4242', '--project', 'billing'])).code).toBe(0);
    const issued = await svc.run(['gateway', 'credential', 'notes-reader', '--json']);
    expect(issued.code).toBe(0);
    const reader = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: JSON.parse(issued.stdout).credential });
    try {
      const { tools } = await reader.client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('list_notes')?.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.get('get_note')?.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.has('manage_notes')).toBe(false);
      expect((await reader.call('list_notes', { projectId })).items.map((n: { id: number }) => n.id)).toContain(note.id);
      expect(await reader.call('get_note', { noteId: note.id })).toMatchObject({ id: note.id, title: 'Read-only reader', body: 'kept by the assistant' });
      expect((await reader.fail('manage_notes', { action: 'create', projectId, title: 'sneaked in' })).code).toBe('unknown_tool');
      expect((await reader.fail('manage_notes', { action: 'delete', noteId: note.id })).code).toBe('unknown_tool');
      const website = (await client.call('get_project', { id: 'website' })).id;
      expect((await reader.fail('list_notes', { projectId: website })).code).toBe('project_out_of_scope');
    } finally {
      await reader.close();
      await svc.run(['gateway', 'remove', 'notes-reader']);
    }
    // Nothing was written or removed through the reader.
    expect((await client.call('list_notes', { projectId })).items.map((n: { title: string }) => n.title)).toEqual(['Read-only reader', 'Release checklist']);
    // manage_notes is for writes only: reading through it is refused with the field named.
    expect((await client.fail('manage_notes', { action: 'list', projectId })).code).toBe('invalid_request');
  });

  test('a read-only profile reads facts and assets with list_project_facts, list_assets and get_asset and cannot write them', async () => {
    await client.call('manage_project_facts', { action: 'set', projectId, key: 'lint command', value: 'pnpm lint' });
    const asset = (await client.call('manage_assets', { action: 'add', projectId, name: 'api spec', kind: 'file', uri: 'docs/openapi.yaml' })).asset;
    const website = (await client.call('get_project', { id: 'website' })).id;
    const elsewhere = (await client.call('manage_assets', { action: 'add', projectId: website, name: 'brand', kind: 'link', uri: 'https://example.com/brand' })).asset;
    expect((await svc.run(['gateway', 'add', 'facts-reader', '--kind', 'hermes'])).code).toBe(0);
    expect((await svc.run(['channel', 'add', 'facts-chat', '--gateway', 'facts-reader', '--platform', 'telegram', '--to', '4343', '--owner', '4343', '--project', 'billing'])).code).toBe(0);
    const issued = await svc.run(['gateway', 'credential', 'facts-reader', '--json']);
    expect(issued.code).toBe(0);
    const reader = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: JSON.parse(issued.stdout).credential });
    try {
      const { tools } = await reader.client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      // Every tool it offers that reads says so (the reads below among them).
      expect(tools.filter((tool) => ALL_OPERATIONS.get(tool.name)!.readOnly && tool.annotations?.readOnlyHint !== true).map((tool) => tool.name)).toEqual([]);
      expect(byName.has('manage_project_facts')).toBe(false);
      expect(byName.has('manage_assets')).toBe(false);
      expect((await reader.call('list_project_facts', { projectId })).items).toContainEqual(expect.objectContaining({ key: 'lint command', value: 'pnpm lint' }));
      expect((await reader.call('list_assets', { projectId })).items.map((a: { id: number }) => a.id)).toContain(asset.id);
      expect(await reader.call('get_asset', { assetId: asset.id })).toMatchObject({ id: asset.id, name: 'api spec', uri: 'docs/openapi.yaml' });
      expect((await reader.fail('manage_project_facts', { action: 'set', projectId, key: 'sneaked', value: 'in' })).code).toBe('unknown_tool');
      expect((await reader.fail('manage_assets', { action: 'remove', assetId: asset.id })).code).toBe('unknown_tool');
      expect((await reader.fail('list_project_facts', { projectId: website })).code).toBe('project_out_of_scope');
      expect((await reader.fail('list_assets', { projectId: website })).code).toBe('project_out_of_scope');
      expect((await reader.fail('get_asset', { assetId: elsewhere.id })).code).toBe('project_out_of_scope');
    } finally {
      await reader.close();
      await svc.run(['gateway', 'remove', 'facts-reader']);
    }
    // Nothing was written or removed through the reader.
    expect((await client.call('list_project_facts', { projectId })).items.map((f: { key: string }) => f.key)).not.toContain('sneaked');
    expect(await client.call('get_asset', { assetId: asset.id })).toMatchObject({ name: 'api spec' });
    // manage_project_facts and manage_assets are for writes only: reading through them is refused.
    expect((await client.fail('manage_project_facts', { action: 'list', projectId })).code).toBe('invalid_request');
    expect((await client.fail('manage_assets', { action: 'get', assetId: asset.id })).code).toBe('invalid_request');
    await client.call('manage_project_facts', { action: 'delete', projectId, key: 'lint command' });
    await client.call('manage_assets', { action: 'remove', assetId: asset.id });
    await client.call('manage_assets', { action: 'remove', assetId: elsewhere.id });
  });

  test("a reply's svcContext, through the gateway profile, hands the gateway's own agent every read the declarations delegate", async () => {
    const delegated = ALL_OPERATIONS.list().filter((operation) => operation.mcp && operation.mcp.delegatedRead);
    expect(delegated.filter((operation) => !operation.readOnly).map((operation) => operation.name)).toEqual([]);
    const names = delegated.map((operation) => operation.name).sort();
    expect(names).toContain('resolve_gateway_task_context');
    const taskId = (await client.call('create_task', { projectId, title: 'Delegated reads' })).id;
    expect((await svc.run(['gateway', 'add', 'delegating', '--kind', 'hermes'])).code).toBe(0);
    expect((await svc.run(['channel', 'add', 'delegating-chat', '--gateway', 'delegating', '--platform', 'telegram', '--to', '5454', '--owner', '5454', '--project', 'billing'])).code).toBe(0);
    const issued = await svc.run(['gateway', 'credential', 'delegating', '--json']);
    expect(issued.code).toBe(0);
    const gateway = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: JSON.parse(issued.stdout).credential });
    try {
      const context = await gateway.call('resolve_gateway_task_context', { platform: 'telegram', chatId: '5454', senderId: '5454', platformMessageId: 'delegated-1', taskId });
      expect(context.svcContext).toMatchObject({ task: { id: taskId }, mayChangeServiceState: false });
      expect([...context.svcContext.allowedTools].sort()).toEqual(names);
    } finally {
      await gateway.close();
      await svc.run(['gateway', 'remove', 'delegating']);
    }
  });

  test('facts, notes and assets are kept, changed and removed; global_search finds them', async () => {
    expect((await client.call('manage_project_facts', { action: 'set', projectId, key: 'test command', value: 'pnpm test' })).fact.value).toBe('pnpm test');
    expect((await client.call('manage_project_facts', { action: 'set', projectId, key: 'test command', value: 'pnpm vitest' })).fact.value).toBe('pnpm vitest');
    expect((await client.call('list_project_facts', { projectId })).items.map((f: { key: string }) => f.key)).toEqual(['release command', 'test command']);
    expect((await client.fail('manage_project_facts', { action: 'set', projectId, key: 'x' })).message).toContain('value');
    await client.call('manage_project_facts', { action: 'delete', projectId, key: 'test command' });
    expect((await client.fail('manage_project_facts', { action: 'delete', projectId, key: 'test command' })).code).toBe('fact_not_found');

    const asset = (await client.call('manage_assets', { action: 'add', projectId, name: 'design', kind: 'link', uri: 'https://example.com/figma/billing', description: 'Figma mockups' })).asset;
    expect((await client.fail('manage_assets', { action: 'add', projectId, name: 'design', kind: 'link', uri: 'https://x' })).code).toBe('asset_exists');
    expect((await client.call('manage_assets', { action: 'update', assetId: asset.id, description: 'Figma mockups of the invoice screen' })).asset.description).toContain('invoice');
    expect((await client.call('list_assets', { projectId })).items.map((a: { name: string }) => a.name)).toEqual(['design']);
    expect(await client.call('get_asset', { assetId: asset.id })).toMatchObject({ id: asset.id, name: 'design', kind: 'link' });

    const hits = (await client.call('global_search', { query: 'figma mockups' })).hits;
    expect(hits[0]).toMatchObject({ kind: 'asset', refId: asset.id, projectId });
    const pages = (await client.call('global_search', { query: 'landing', kinds: ['file'] })).hits;
    expect(pages).toEqual([expect.objectContaining({ kind: 'file', path: 'index.html' })]);

    await client.call('manage_assets', { action: 'remove', assetId: asset.id });
    expect((await client.call('global_search', { query: 'figma' })).hits).toEqual([]);
  });

  test('daily_summary and daily_todo report the day from the database', async () => {
    const task = await client.call('create_task', { projectId, title: 'Fix invoice rounding' });
    const done = await client.call('create_task', { projectId, title: 'Write changelog' });
    await client.call('move_task', { id: done.id, status: 'DONE' });
    const summary = await client.call('daily_summary', { projectId });
    expect(summary.tasksCreated.map((t: { id: number }) => t.id)).toEqual(expect.arrayContaining([task.id, done.id]));
    expect(summary.tasksCompleted.map((t: { id: number }) => t.id)).toEqual([done.id]);
    expect(summary.notes.map((n: { title: string }) => n.title)).toContain('Release checklist');
    expect((await client.call('daily_summary', { projectId, date: '2001-01-01' })).tasksCreated).toEqual([]);
    const todo = await client.call('daily_todo', { projectId });
    expect(todo.todo.map((t: { id: number }) => t.id)).toContain(task.id);
    expect(todo.todo.map((t: { id: number }) => t.id)).not.toContain(done.id);
  });

  test('product groups gather projects of one workspace, each project in one group at most', async () => {
    const workspace = (await client.call('list_workspaces')).items[0];
    const website = (await client.call('get_project', { id: 'website' })).id;
    const group = await client.call('create_product_group', { workspaceId: workspace.id, name: 'storefront', projectIds: [projectId, website] });
    expect(group).toMatchObject({ name: 'storefront', projectIds: [projectId, website].sort((a, b) => a - b) });
    const second = await client.fail('create_product_group', { workspaceId: workspace.id, name: 'backoffice', projectIds: [projectId] });
    expect(second.code).toBe('project_in_other_group');
    expect((await client.fail('create_product_group', { workspaceId: workspace.id, name: 'storefront' })).code).toBe('product_group_exists');
    expect((await client.call('update_product_group', { id: group.id, projectIds: [website] })).projectIds).toEqual([website]);
    expect((await client.call('list_product_groups', { workspaceId: workspace.id })).items.map((g: { name: string }) => g.name)).toEqual(['storefront']);
    await client.call('delete_product_group', { id: group.id });
    expect((await client.fail('get_product_group', { id: group.id })).code).toBe('product_group_not_found');
    expect((await client.call('get_project', { id: website })).name).toBe('website');
  });

  test('every change of a task is a version, and an earlier text can be restored', async () => {
    const task = await client.call('create_task', { projectId, title: 'Draft title', description: 'first words' });
    await client.call('update_task', { id: task.id, title: 'Better title', description: 'second words' });
    await client.call('move_task', { id: task.id, status: 'IN_PROGRESS' });
    const versions = (await client.call('list_task_versions', { taskId: task.id })).items;
    expect(versions.map((v: { version: number; title: string; status: string }) => [v.version, v.title, v.status])).toEqual([
      [1, 'Draft title', 'TODO'],
      [2, 'Better title', 'TODO'],
      [3, 'Better title', 'IN_PROGRESS'],
    ]);
    const restored = await client.call('restore_task_version', { taskId: task.id, version: 1 });
    expect(restored).toMatchObject({ title: 'Draft title', description: 'first words', status: 'IN_PROGRESS' });
    expect((await client.call('list_task_versions', { taskId: task.id })).items).toHaveLength(4);
    expect((await client.fail('restore_task_version', { taskId: task.id, version: 9 })).code).toBe('task_version_not_found');
  });

  test('task defaults are kept per project and name only connections that exist', async () => {
    expect(await client.call('get_task_defaults', { projectId })).toEqual({ projectId, connection: null, model: null, updatedAt: null });
    expect((await client.fail('set_task_defaults', { projectId, connection: 'nope' })).code).toBe('connection_not_found');
    expect(await client.call('set_task_defaults', { projectId: 'billing', model: 'fast-model' })).toMatchObject({ projectId, connection: null, model: 'fast-model' });
    expect((await client.call('set_task_defaults', { projectId, model: null })).model).toBeNull();
  });

  test('set_goal_mode writes and removes the signal file and keeps the column as its shadow', async () => {
    const task = await client.call('create_task', { projectId, title: 'Long unattended refactor' });
    const signal = join(svc.home, 'signals', `unattended-${task.id}`);
    const on = await client.call('set_goal_mode', { taskId: task.id, unattended: true });
    expect(on).toEqual({ taskId: task.id, unattended: true, signalFile: signal });
    expect(existsSync(signal)).toBe(true);
    expect((await client.call('get_task', { id: task.id })).unattended).toBe(true);
    await client.call('set_goal_mode', { taskId: task.id, unattended: false });
    expect(existsSync(signal)).toBe(false);
    expect((await client.call('get_task', { id: task.id })).unattended).toBe(false);
    // Inside a task terminal the task is its own, proven by its execution's credential.
    const local = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
    const minted = mintTaskCredential();
    try {
      const execution = local.domain.executions.create({ taskId: task.id, connectionId: null, connectionName: 'stand-in', providerId: 'svc.stand-in', mode: 'fresh', sessionId: null });
      local.domain.executions.storeCredential(execution.id, minted.hash);
    } finally {
      await local.close();
    }
    const inTask = await mcp({ SVC_TASK_ID: String(task.id), SVC_TASK_CREDENTIAL: minted.credential });
    expect((await inTask.call('set_goal_mode', { unattended: true })).taskId).toBe(task.id);
    expect(existsSync(signal)).toBe(true);
    await inTask.close();
  });

  test('terminal tools say the service is not running; gateway tools refuse unknown senders; capability tools need a task', async () => {
    const task = await client.call('create_task', { projectId, title: 'Needs a terminal' });
    const down = await client.fail('get_task_terminal_output', { taskId: task.id, cursor: 0 });
    expect(down.code).toBe('server_not_running');
    // ask_human parks a live terminal, so it runs in the service too.
    expect((await client.fail('ask_human', { question: 'Ship it?', taskId: task.id })).code).toBe('server_not_running');
    expect((await client.fail('relay_channel_reply', { taskId: task.id, reply: 'ok' })).code).toBe('server_not_running');
    // Only a gateway's plugin, with its credential, may say who sent a platform message.
    expect((await client.fail('route_gateway_query', { platform: 'telegram', chatId: '1', senderId: '3', platformMessageId: '2', text: 'hi' })).code).toBe('gateway_credential_required');
    expect((await client.fail('route_gateway_message', { platform: 'telegram', chatId: '1', senderId: '3', platformMessageId: '2', text: 'hi' })).code).toBe('gateway_credential_required');
    // Capabilities are scoped to a task: none named, none offered.
    expect((await client.fail('list_capabilities', {})).code).toBe('invalid_request');
  });

  test('nothing but protocol messages reaches stdout; logs go to the log file', async () => {
    const child = spawn(process.execPath, [SVC_BIN, 'mcp'], { env: { ...svc.env, SVC_LOG_LEVEL: 'debug' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'create_workspace', arguments: { name: 'quiet' } } });
    send({ id: 3, method: 'tools/call', params: { name: 'delete_workspace', arguments: { id: 'no-such-workspace' } } });
    send({ id: 4, method: 'tools/call', params: { name: 'start_task_execution', arguments: { taskId: 1, connection: 'x' } } });
    child.stdin.end();
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id).sort()).toEqual([1, 2, 3, 4]);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    const log = readFileSync(join(svc.home, 'logs', 'svc.log'), 'utf8');
    expect(log).toContain('"message":"mcp session"');
    expect(log).toContain('"profile":"full"');
    expect(client.stderr()).toBe('');
  });
});
