// Every read the gateway-side profiles offer, asked about a project outside the caller's channel, by
// its id and by its name, through a real `svc mcp` child: refused with `project_out_of_scope` (or the
// tool's own refusal), or answered without a word of the other project. The list of tools comes from
// the capability definition, so a new read of these profiles fails here until it has its case.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CapabilityDefinition } from '@svc-org/host/adapters/mcp';
import { ALL_OPERATIONS } from '@svc-org/host/app/all-operations';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { connectSvcMcp, type SvcMcp } from '../support/svc-mcp-client.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { harnessPlugin } from '@svc-org/harness';

type Args = Record<string, unknown>;

/** The other project's records, by id and by name. */
interface Elsewhere {
  projectB: number;
  workspace: number;
  taskB: number;
  labelB: number;
  executionB: number;
  noteB: number;
  assetB: number;
  groupFar: number;
}

/**
 * How a read names another project. `refused`: both spellings fail with `code` (`nameCode` for the
 * name, when the field takes ids only and the name fails validation). `answered`: both answer (or
 * fail with `code`) and say nothing of the other project. `none`: the tool names no project at all.
 */
type Case =
  | { kind: 'refused'; byId: (e: Elsewhere) => Args; byName: (e: Elsewhere) => Args; code?: string; nameCode?: string }
  | { kind: 'answered'; byId: (e: Elsewhere) => Args; byName: (e: Elsewhere) => Args; code?: string }
  | { kind: 'none'; args: Args; code?: string };

const CHAT = { platform: 'telegram', chatId: '4242', senderId: '4242' };
const IDS_ONLY = 'invalid_request';

const CASES: Record<string, Case> = {
  get_workspace: { kind: 'refused', byId: (e) => ({ id: e.workspace }), byName: () => ({ id: 'elsewhere' }) },
  list_workspaces: { kind: 'none', args: {} },
  get_project: { kind: 'refused', byId: (e) => ({ id: e.projectB }), byName: () => ({ id: 'bravo' }) },
  list_projects: { kind: 'answered', byId: (e) => ({ workspaceId: e.workspace }), byName: () => ({ workspaceId: 'elsewhere' }) },
  get_task: { kind: 'refused', byId: (e) => ({ id: e.taskB }), byName: () => ({ id: 'bravo secret plan' }), nameCode: IDS_ONLY },
  list_tasks: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }) },
  get_label: { kind: 'refused', byId: (e) => ({ id: e.labelB }), byName: () => ({ id: 'bravo-only' }), nameCode: IDS_ONLY },
  list_labels: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }) },
  get_execution: { kind: 'refused', byId: (e) => ({ id: e.executionB }), byName: () => ({ id: 'bravo' }), nameCode: IDS_ONLY },
  list_executions: { kind: 'refused', byId: (e) => ({ taskId: e.taskB }), byName: () => ({ taskId: 'bravo secret plan' }), nameCode: IDS_ONLY },
  get_task_terminal_output: { kind: 'refused', byId: (e) => ({ taskId: e.taskB }), byName: () => ({ taskId: 'bravo secret plan' }), nameCode: IDS_ONLY },
  get_task_terminal_status: { kind: 'refused', byId: (e) => ({ taskId: e.taskB }), byName: () => ({ taskId: 'bravo secret plan' }), nameCode: IDS_ONLY },
  list_task_terminals: { kind: 'none', args: {} },
  list_product_groups: { kind: 'refused', byId: (e) => ({ workspaceId: e.workspace }), byName: () => ({ workspaceId: 'elsewhere' }), nameCode: IDS_ONLY },
  get_product_group: { kind: 'refused', byId: (e) => ({ id: e.groupFar }), byName: () => ({ id: 'far' }), nameCode: IDS_ONLY },
  list_task_versions: { kind: 'refused', byId: (e) => ({ taskId: e.taskB }), byName: () => ({ taskId: 'bravo secret plan' }), nameCode: IDS_ONLY },
  get_task_defaults: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }) },
  identify_project: { kind: 'answered', byId: (e) => ({ text: `project #${e.projectB}` }), byName: () => ({ text: 'the bravo wombat ledger' }) },
  ask_project_knowledge: { kind: 'refused', byId: (e) => ({ projectId: e.projectB, question: 'wombat' }), byName: () => ({ projectId: 'bravo', question: 'wombat' }), nameCode: IDS_ONLY },
  list_project_facts: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }), nameCode: IDS_ONLY },
  list_notes: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }), nameCode: IDS_ONLY },
  get_note: { kind: 'refused', byId: (e) => ({ noteId: e.noteB }), byName: () => ({ noteId: 'bravo note' }), nameCode: IDS_ONLY },
  list_assets: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }), nameCode: IDS_ONLY },
  get_asset: { kind: 'refused', byId: (e) => ({ assetId: e.assetB }), byName: () => ({ assetId: 'bravo spec' }), nameCode: IDS_ONLY },
  global_search: { kind: 'refused', byId: (e) => ({ query: 'wombat', projectId: e.projectB }), byName: () => ({ query: 'wombat', projectId: 'bravo' }), nameCode: IDS_ONLY },
  daily_summary: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }), nameCode: IDS_ONLY },
  daily_todo: { kind: 'refused', byId: (e) => ({ projectId: e.projectB }), byName: () => ({ projectId: 'bravo' }), nameCode: IDS_ONLY },
  route_gateway_query: {
    kind: 'answered',
    byId: (e) => ({ ...CHAT, platformMessageId: 'q-id', text: 'what is open?', project: String(e.projectB) }),
    byName: () => ({ ...CHAT, platformMessageId: 'q-name', text: 'what is open?', project: 'bravo' }),
  },
  resolve_gateway_task_context: {
    kind: 'refused',
    byId: (e) => ({ ...CHAT, platformMessageId: 'r-id', taskId: e.taskB }),
    byName: (e) => ({ ...CHAT, platformMessageId: 'r-name', text: `about [[svc:task=${e.taskB}]]` }),
    code: 'task_not_bound',
  },
  diagnose_gateway_request: { kind: 'none', args: { ...CHAT, platformMessageId: 'never-sent' }, code: 'inbound_not_found' },
  get_gateway_runtime_health: { kind: 'none', args: {} },
  observe_gateway_maintenance: { kind: 'none', args: {} },
};

/** Words only the other projects' records hold. */
const OTHER = /bravo|wombat|charlie|elsewhere|far away/i;

let svc: SvcSandbox;
let serve: ServeProcess;
let services: HostServices;
let outside: string;
let elsewhere: Elsewhere;
let credential: string;
const clients: SvcMcp[] = [];

async function mcp(env: Record<string, string>): Promise<SvcMcp> {
  const client = await connectSvcMcp(svc, env);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  outside = mkdtempSync(join(tmpdir(), 'svc-read-scope-'));
  for (const name of ['alpha', 'bravo', 'charlie']) mkdirSync(join(outside, name));
  writeFileSync(join(outside, 'alpha', 'README.md'), 'alpha uses the quokka protocol\n');
  writeFileSync(join(outside, 'bravo', 'README.md'), 'bravo keeps the wombat ledger\n');
  services = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
  const { domain } = services;
  const main = domain.workspaces.create({ name: 'main' });
  const far = domain.workspaces.create({ name: 'elsewhere' });
  const projectA = domain.projects.create({ workspaceId: main.id, name: 'alpha', repoPath: join(outside, 'alpha') }).id;
  const projectB = domain.projects.create({ workspaceId: main.id, name: 'bravo', repoPath: join(outside, 'bravo') }).id;
  const charlie = domain.projects.create({ workspaceId: far.id, name: 'charlie', repoPath: join(outside, 'charlie') }).id;
  domain.tasks.create({ projectId: projectA, title: 'alpha visible' });
  const taskB = domain.tasks.create({ projectId: projectB, title: 'bravo secret plan' }).id;
  const labelB = domain.labels.create({ projectId: projectB, name: 'bravo-only' }).id;
  domain.taskDefaults.set(projectB, { model: 'bravo-model' });
  const executionB = domain.executions.create({ taskId: taskB, connectionId: null, connectionName: 'stand-in', providerId: 'svc.stand-in', mode: 'fresh', sessionId: null }).id;

  const person = await mcp({});
  const noteB = (await person.call('manage_notes', { action: 'create', projectId: projectB, title: 'bravo note', body: 'the wombat ledger' })).note.id;
  const assetB = (await person.call('manage_assets', { action: 'add', projectId: projectB, name: 'bravo spec', kind: 'file', uri: 'docs/bravo.yaml' })).asset.id;
  await person.call('manage_project_facts', { action: 'set', projectId: projectB, key: 'bravo command', value: 'make wombat' });
  const groupFar = (await person.call('create_product_group', { workspaceId: far.id, name: 'far', description: 'far away', projectIds: [charlie] })).id;
  elsewhere = { projectB, workspace: far.id, taskB, labelB, executionB, noteB, assetB, groupFar };

  expect((await svc.run(['gateway', 'add', 'claw', '--kind', 'hermes'])).code).toBe(0);
  const channel = await svc.run(['channel', 'add', 'owner', '--gateway', 'claw', '--platform', 'telegram', '--to', '4242', '--owner', '4242', '--project', 'alpha']);
  expect(channel.code, channel.stderr).toBe(0);
  const issued = await svc.run(['gateway', 'credential', 'claw', '--json']);
  expect(issued.code, issued.stderr).toBe(0);
  credential = JSON.parse(issued.stdout).credential;
  // The terminal reads run in the service: reached over the bridge, after the scope check.
  serve = await startServe(svc);
}, 90_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await services?.close();
  svc?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

/** What one call answers or fails with, as text, and its error code when it failed. */
async function ask(client: SvcMcp, tool: string, args: Args): Promise<{ code?: string; text: string }> {
  const result = (await client.client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
  if (result.isError) {
    const error = JSON.parse(result.content[0]!.text).error as { code: string; message: string };
    return { code: error.code, text: JSON.stringify(error) };
  }
  return { text: JSON.stringify(result.structuredContent) };
}

describe("every read of the gateway-side profiles stays within the caller's channel", () => {
  const definition = new CapabilityDefinition(ALL_OPERATIONS.list());
  const readsOf = (profile: 'gateway' | 'gateway-query') => definition.toolsOf(profile).filter((tool) => tool.readOnly).map((tool) => tool.name);

  test('each read tool of the gateway and gateway-query profiles has its case here', () => {
    const reads = new Set([...readsOf('gateway'), ...readsOf('gateway-query')]);
    expect([...reads].filter((name) => !(name in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((name) => !reads.has(name))).toEqual([]);
  });

  for (const profile of ['gateway', 'gateway-query'] as const) {
    test(`${profile}: another project, by id and by name, is refused or left out of the answer`, async () => {
      // The gateway's plugin: its credential scopes it to its channels (project alpha) and lets it name the chat's sender.
      const client = await mcp({ SVC_MCP_PROFILE: profile, SVC_GATEWAY_CREDENTIAL: credential });
      const problems: string[] = [];
      for (const tool of readsOf(profile)) {
        const rule = CASES[tool]!;
        const asked = rule.kind === 'none' ? [['', rule.args, rule.code] as const] : [['id', rule.byId(elsewhere), rule.code] as const, ['name', rule.byName(elsewhere), rule.kind === 'refused' ? (rule.nameCode ?? rule.code) : rule.code] as const];
        for (const [spelling, args, expectedCode] of asked) {
          const answer = await ask(client, tool, args);
          const label = `${tool}${spelling ? ` by ${spelling}` : ''}`;
          if (rule.kind === 'refused' && answer.code !== (expectedCode ?? 'project_out_of_scope')) problems.push(`${label}: ${answer.code ?? 'answered'} ${answer.text.slice(0, 200)}`);
          else if (rule.kind !== 'refused' && answer.code !== expectedCode) problems.push(`${label}: ${answer.code ?? 'answered'} ${answer.text.slice(0, 200)}`);
          // A refusal may echo what was asked; an answer says nothing of the other projects.
          if (answer.code === undefined && OTHER.test(answer.text)) problems.push(`${label} mentions another project: ${answer.text.slice(0, 200)}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  test("a gateway's model (its channel serves alpha) reads bravo's labels and task defaults neither by name nor by id", async () => {
    const model = await mcp({ SVC_MCP_PROFILE: 'gateway', SVC_CHANNEL: 'owner' });
    for (const projectId of ['bravo', elsewhere.projectB, String(elsewhere.projectB)]) {
      expect((await model.fail('list_labels', { projectId })).code, `list_labels ${projectId}`).toBe('project_out_of_scope');
      expect((await model.fail('get_task_defaults', { projectId })).code, `get_task_defaults ${projectId}`).toBe('project_out_of_scope');
    }
    expect((await model.call('list_labels', { projectId: 'alpha' })).items).toEqual([]);
    expect((await model.call('get_task_defaults', { projectId: 'alpha' })).model ?? null).toBeNull();
  });
});
