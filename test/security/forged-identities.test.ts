// Identities and reach an agent cannot forge, driven the way the agent would: a `svc mcp` child with
// whatever environment and arguments it chooses. A task is proven by its execution's credential, a
// platform sender only by a gateway plugin's credential; a gateway-side caller reads only its
// channel's projects; SVC_HOME and files named like secrets never reach a knowledge answer;
// push_to_human reaches only chats a channel names; a query bridge cannot answer a discussion.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { mintTaskCredential } from '@svc-org/host/features/terminals';
import { connectSvcMcp, type SvcMcp } from '../support/svc-mcp-client.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { harnessPlugin } from '@svc-org/harness';

const SECRET = 'sekrit-value-8f3a';

let svc: SvcSandbox;
let services: HostServices;
let outside: string;
let repoA: string;
let repoB: string;
let projectA: number;
let projectB: number;
let workbench: number;
let child: number;
let gatewayCredential: string;
const clients: SvcMcp[] = [];

async function mcp(env: Record<string, string>): Promise<SvcMcp> {
  const client = await connectSvcMcp(svc, env);
  clients.push(client);
  return client;
}

/** Rows of a table that match; 0 when nothing ever created the table. */
function count(table: string, where = '1 = 1', ...args: (string | number)[]): number {
  if (!services.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) return 0;
  return Number((services.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...args) as { n: number }).n);
}

/** A live execution of the task with its credential, as the terminal manager mints it at start. */
function runningWithCredential(taskId: number): { executionId: number; credential: string } {
  const execution = services.domain.executions.create({ taskId, connectionId: null, connectionName: 'stand-in', providerId: 'svc.stand-in', mode: 'fresh', sessionId: null });
  const minted = mintTaskCredential();
  services.domain.executions.storeCredential(execution.id, minted.hash);
  return { executionId: execution.id, credential: minted.credential };
}

beforeAll(async () => {
  svc = createSvcSandbox();
  outside = mkdtempSync(join(tmpdir(), 'svc-forged-'));
  repoA = join(outside, 'alpha');
  repoB = join(outside, 'bravo');
  mkdirSync(repoA);
  mkdirSync(repoB);
  writeFileSync(join(repoA, 'README.md'), 'alpha uses the quokka protocol\n');
  writeFileSync(join(repoB, 'README.md'), 'bravo keeps the wombat ledger\n');
  for (const name of ['api.key', 'token', 'credentials.json', 'id_ed25519', 'client_secret.json'])
    writeFileSync(join(repoA, name), `platypus ${SECRET} ${name}\n`);
  services = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  const workspace = services.domain.workspaces.create({ name: 'main' });
  projectA = services.domain.projects.create({ workspaceId: workspace.id, name: 'alpha', repoPath: repoA }).id;
  projectB = services.domain.projects.create({ workspaceId: workspace.id, name: 'bravo', repoPath: repoB }).id;
  workbench = services.domain.tasks.create({ projectId: projectA, title: 'Workbench' }).id;
  child = services.domain.tasks.create({ projectId: projectA, title: 'child', parentTaskId: workbench }).id;

  expect((await svc.run(['gateway', 'add', 'claw', '--kind', 'hermes'])).code).toBe(0);
  const channel = await svc.run(['channel', 'add', 'owner', '--gateway', 'claw', '--platform', 'telegram', '--to', '4242', '--owner', '4242', '--target', 'team=-100777', '--project', 'alpha']);
  expect(channel.code, channel.stderr).toBe(0);
  const issued = await svc.run(['gateway', 'credential', 'claw', '--json']);
  expect(issued.code, issued.stderr).toBe(0);
  gatewayCredential = JSON.parse(issued.stdout).credential;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await services?.close();
  svc?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe('a task is proven by its execution credential, not by SVC_TASK_ID', () => {
  test("a child's agent that sets SVC_TASK_ID to its Workbench's id speaks for no task", async () => {
    runningWithCredential(workbench);
    const forged = await mcp({ SVC_MCP_PROFILE: 'task', SVC_TASK_ID: String(workbench) });
    const refused = await forged.fail('notify_human', { message: 'FINAL_RESULT: done' });
    expect(refused.code).toBe('task_credential_required');
    expect(count('harness_messages', 'task_id = ?', workbench)).toBe(0);
  });

  test("the child's own credential does not make it the Workbench", async () => {
    const own = runningWithCredential(child);
    const claimed = await mcp({ SVC_MCP_PROFILE: 'task', SVC_TASK_ID: String(workbench), SVC_TASK_CREDENTIAL: own.credential });
    expect((await claimed.fail('notify_human', { message: 'as the Workbench' })).code).toBe('task_credential_invalid');
    const honest = await mcp({ SVC_MCP_PROFILE: 'task', SVC_TASK_ID: String(child), SVC_TASK_CREDENTIAL: own.credential });
    expect((await honest.call('notify_human', { message: 'progress' })).taskId).toBe(child);
    expect((await honest.fail('notify_human', { message: 'for the Workbench', taskId: workbench })).code).toBe('task_mismatch');
  });

  test('the credential dies with its execution', async () => {
    const task = services.domain.tasks.create({ projectId: projectA, title: 'short-lived' }).id;
    const run = runningWithCredential(task);
    services.domain.executions.finish(run.executionId, { status: 'COMPLETED', endReason: 'exited', exitCode: 0 });
    const late = await mcp({ SVC_MCP_PROFILE: 'task', SVC_TASK_ID: String(task), SVC_TASK_CREDENTIAL: run.credential });
    expect((await late.fail('notify_human', { message: 'after the end' })).code).toBe('task_credential_invalid');
    expect(count('execution_credentials', 'execution_id = ?', run.executionId)).toBe(0);
  });
});

describe('only the gateway plugin, with its credential, names a platform sender', () => {
  const owner = { platform: 'telegram', chatId: '4242', senderId: '4242', text: 'what is open in alpha?', kind: 'discussion' };

  test("an svc mcp client passing the owner's senderId is not the owner", async () => {
    for (const profile of ['full', 'gateway']) {
      const client = await mcp({ SVC_MCP_PROFILE: profile });
      const refused = await client.fail('route_gateway_message', { ...owner, platformMessageId: `forged-${profile}` });
      expect(refused.code).toBe('gateway_credential_required');
    }
    expect(count('harness_gateway_inbound')).toBe(0);
  });

  test('the plugin with the gateway credential routes the same message', async () => {
    const plugin = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: gatewayCredential });
    const routed = await plugin.call('route_gateway_message', { ...owner, platformMessageId: 'real-1' });
    expect(routed.projectId).toBe(projectA);
    const wrong = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: `${gatewayCredential}x` });
    expect((await wrong.fail('route_gateway_message', { ...owner, platformMessageId: 'real-2' })).code).toBe('gateway_credential_invalid');
  });

  test("the gateway profile without the credential (a gateway's model) offers reads only", async () => {
    const model = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_CHANNEL: 'owner' });
    const { tools } = await model.client.listTools();
    const writes = tools.filter((tool) => tool.annotations?.readOnlyHint === false).map((tool) => tool.name);
    expect(writes.length).toBeGreaterThan(0);
    for (const name of writes) {
      const result = await model.client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      const code = JSON.parse((result.content as { text: string }[])[0]!.text).error.code;
      expect(code, name).toBe('gateway_credential_required');
    }
    expect((await model.call('get_project', { id: projectA })).name).toBe('alpha');
    expect((await model.call('list_projects', {})).items.map((project: { name: string }) => project.name)).toEqual(['alpha']);
  });

  test("a gateway's model reads the tasks, labels, executions, terminals and groups of its channel's projects only", async () => {
    const other = services.domain.workspaces.create({ name: 'elsewhere' });
    const charlie = services.domain.projects.create({ workspaceId: other.id, name: 'charlie', repoPath: outside }).id;
    const taskB = services.domain.tasks.create({ projectId: projectB, title: 'bravo secret plan' }).id;
    const labelB = services.domain.labels.create({ projectId: projectB, name: 'bravo-only' }).id;
    const executionB = services.domain.executions.create({ taskId: taskB, connectionId: null, connectionName: 'stand-in', providerId: 'svc.stand-in', mode: 'fresh', sessionId: null }).id;
    const taskA = services.domain.tasks.create({ projectId: projectA, title: 'alpha visible' }).id;
    const executionA = services.domain.executions.create({ taskId: taskA, connectionId: null, connectionName: 'stand-in', providerId: 'svc.stand-in', mode: 'fresh', sessionId: null }).id;
    const person = await mcp({});
    const group = await person.call('create_product_group', { workspaceId: 1, name: 'suite', projectIds: [projectA, projectB] });
    await person.call('create_product_group', { workspaceId: other.id, name: 'far', projectIds: [charlie] });

    const model = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_CHANNEL: 'owner' });
    const refused: Array<[string, Record<string, unknown>]> = [
      ['get_task', { id: taskB }],
      ['get_task', { id: 987654 }],
      ['list_tasks', { projectId: projectB }],
      ['list_task_versions', { taskId: taskB }],
      ['get_task_defaults', { projectId: projectB }],
      ['get_label', { id: labelB }],
      ['list_labels', { projectId: projectB }],
      ['get_execution', { id: executionB }],
      ['list_executions', { taskId: taskB }],
      ['get_task_terminal_status', { taskId: taskB }],
      ['get_task_terminal_output', { taskId: taskB }],
      ['get_workspace', { id: other.id }],
      ['list_product_groups', { workspaceId: other.id }],
      ['daily_todo', { projectId: projectB }],
      ['daily_summary', { projectId: projectB }],
    ];
    for (const [tool, args] of refused) expect((await model.fail(tool, args)).code, tool).toBe('project_out_of_scope');
    expect((await model.call('get_task', { id: taskA })).title).toBe('alpha visible');
    const tasks = (await model.call('list_tasks', {})).items.map((task: { projectId: number }) => task.projectId);
    expect(tasks.length).toBeGreaterThan(0);
    expect(new Set(tasks)).toEqual(new Set([projectA]));
    const executions = (await model.call('list_executions', {})).items.map((e: { id: number }) => e.id);
    expect(executions).toContain(executionA);
    expect(executions).not.toContain(executionB);
    expect((await model.call('list_workspaces', {})).items.map((w: { name: string }) => w.name)).toEqual(['main']);
    expect((await model.call('list_product_groups', {})).items).toEqual([expect.objectContaining({ name: 'suite', projectIds: [projectA] })]);
    expect((await model.call('get_product_group', { id: group.id })).projectIds).toEqual([projectA]);
    const todo = await model.call('daily_todo', {});
    expect(JSON.stringify(todo)).not.toContain('bravo secret plan');
    expect(JSON.stringify(todo)).toContain('alpha visible');
    // The person's own session is not scoped: the same reads answer.
    expect((await person.call('get_task', { id: taskB })).title).toBe('bravo secret plan');
  });
});

describe("knowledge follows the caller's channel and never serves SVC_HOME or secret files", () => {
  test("a gateway-query bridge reads only its channel's projects", async () => {
    const bridge = await mcp({ SVC_MCP_PROFILE: 'gateway-query', SVC_CHANNEL: 'owner' });
    expect((await bridge.call('ask_project_knowledge', { projectId: projectA, question: 'quokka' })).passages.length).toBeGreaterThan(0);
    expect((await bridge.fail('ask_project_knowledge', { projectId: projectB, question: 'wombat' })).code).toBe('project_out_of_scope');
    expect((await bridge.fail('get_project', { id: projectB })).code).toBe('project_out_of_scope');
    const placed = await bridge.call('identify_project', { text: 'the wombat ledger' });
    expect(placed.candidates.map((c: { projectId: number }) => c.projectId)).not.toContain(projectB);
    const unscoped = await mcp({ SVC_MCP_PROFILE: 'gateway-query' });
    expect((await unscoped.fail('ask_project_knowledge', { projectId: projectA, question: 'quokka' })).code).toBe('project_out_of_scope');
  });

  test('SVC_HOME, a folder holding it, or a link to it is refused as a repository', async () => {
    const person = await mcp({});
    const link = join(outside, 'home-link');
    symlinkSync(svc.home, link);
    for (const repoPath of [svc.home, join(svc.home, 'logs'), join(svc.home, '..'), link]) {
      const refused = await person.fail('create_project', { workspaceId: 'main', name: `home-${clients.length}-${repoPath.length}`, repoPath });
      expect(refused.code, repoPath).toBe('repository_holds_svc_home');
    }
    expect((await person.fail('update_project', { id: projectB, repoPath: svc.home })).code).toBe('repository_holds_svc_home');
  });

  test('files named like secrets stay out of the index unless a person opts the path in', async () => {
    const person = await mcp({});
    const before = await person.call('ask_project_knowledge', { projectId: projectA, question: 'platypus', limit: 50 });
    expect(JSON.stringify(before)).not.toContain(SECRET);
    const optIn = await svc.run(['config', 'set', 'knowledge.index.secretPaths', join(repoA, 'api.key')]);
    expect(optIn.code, optIn.stderr).toBe(0);
    const after = await person.call('ask_project_knowledge', { projectId: projectA, question: 'platypus', limit: 50 });
    expect(after.passages.map((p: { path?: string; title?: string }) => p.path ?? p.title)).toContain('api.key');
    expect(JSON.stringify(after)).not.toMatch(/token|credentials\.json|id_ed25519|client_secret/);
  });
});

describe('push_to_human reaches only chats a channel names', () => {
  test('a raw chat id is refused until a person allows raw targets', async () => {
    const task = services.domain.tasks.create({ projectId: projectA, title: 'pusher' }).id;
    const run = runningWithCredential(task);
    const agent = await mcp({ SVC_MCP_PROFILE: 'task', SVC_TASK_ID: String(task), SVC_TASK_CREDENTIAL: run.credential });
    const refused = await agent.fail('push_to_human', { message: 'hello stranger', to: '-100999' });
    expect(refused.code).toBe('target_not_named');
    expect(count('harness_messages', 'task_id = ?', task)).toBe(0);
    expect((await agent.call('push_to_human', { message: 'to the team', to: 'team' })).to).toBe('-100777');
    expect((await agent.call('push_to_human', { message: 'to the team by chat', to: '-100777' })).to).toBe('-100777');
    expect((await svc.run(['config', 'set', 'harness.push.rawTargets', 'allow'])).code).toBe(0);
    expect((await agent.call('push_to_human', { message: 'allowed now', to: '-100999' })).to).toBe('-100999');
  });
});

describe('a query bridge cannot answer a discussion', () => {
  test('complete_gateway_discussion is not on gateway-query, and over MCP only a Workbench terminal may call it', async () => {
    const bridge = await mcp({ SVC_MCP_PROFILE: 'gateway-query', SVC_CHANNEL: 'owner' });
    const names = (await bridge.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('complete_gateway_discussion');
    const inbound = services.db.prepare("SELECT id FROM harness_gateway_inbound WHERE request = 'discussion' ORDER BY id LIMIT 1").get() as { id: number };
    const person = await mcp({});
    expect((await person.fail('complete_gateway_discussion', { inboundId: inbound.id, text: 'an answer from nowhere' })).code).toBe('workbench_caller_required');
  });
});
