// What a caller bound to one task reaches, for every MCP tool: its own task, the tasks below it and
// its project. Every tool whose input names a task, an execution, a project or another record is
// called here as task 1's terminal (its credential, or a `--task` token: the same caller) naming a
// record of another project, of a sibling task and of its parent, each refused with
// `task_out_of_scope`; the same call naming its own records is not refused. Real database, the MCP
// adapter's own invoker; the calls over stdio and HTTP are in test/security/task-reach-mcp.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authenticateMcpCaller } from '@svc-org/host/adapters/mcp/authenticate-mcp-caller';
import { CapabilityDefinition } from '@svc-org/host/adapters/mcp/capability-definition';
import { McpCallerInvoker } from '@svc-org/host/adapters/mcp/mcp-caller-invoker';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { ProjectKnowledge } from '@svc-org/host/features/knowledge/project-knowledge';
import { ProductGroupStore } from '@svc-org/host/features/products/product-group-store';
import { OperationRegistry, type AnyOperation, type OperationCaller, type RecordKind } from '@svc-org/host/operation-framework';
import { transaction } from '@svc-org/host/platform/db';
import { notifyHuman } from '../src/messaging/index.js';
import { routingStores } from '../src/routing/index.js';
import { approvalStores } from '../src/approvals/index.js';
import { addTelegramChannel, openHarnessFixture, type HarnessFixture } from './support/harness-fixture.js';

const definition = new CapabilityDefinition(ALL_OPERATIONS.list());
const tools = definition.all();

/** The records of one side: what each named field points at. */
type Targets = Record<string, number>;

let fx: HarnessFixture;
/** Task 1 (the caller), its child and grandchild, a sibling in its project, a task of another project. */
const ids = { own: 0, child: 0, grandchild: 0, sibling: 0, other: 0, otherProject: 0, otherWorkspace: 0 };
let mine: Targets;
let otherProject: Targets;
let sibling: Targets;
let parentOfChild: Targets;

function kindOf(field: string, operation: AnyOperation): string {
  const kind = operation.reach!.names![field]!;
  return typeof kind === 'string' ? kind : RESOLVER_KIND.get(kind) ?? `resolver of ${operation.name}.${field}`;
}
/** The feature resolvers, named by what they resolve (each is declared next to its tools). */
const RESOLVER_KIND = new Map<unknown, string>();

beforeAll(async () => {
  fx = await openHarnessFixture();
  const { services } = fx;
  addTelegramChannel(fx, '4242');
  const otherRepo = join(fx.home, 'other-repo');
  mkdirSync(otherRepo);
  const otherWorkspace = services.domain.workspaces.create({ name: 'elsewhere' });
  const other = services.domain.projects.create({ workspaceId: otherWorkspace.id, name: 'bravo', repoPath: otherRepo });
  ids.otherProject = other.id;
  ids.otherWorkspace = otherWorkspace.id;
  ids.own = fx.newTask('caller');
  ids.child = services.domain.tasks.create({ projectId: fx.projectId, title: 'child', parentTaskId: ids.own }).id;
  ids.grandchild = services.domain.tasks.create({ projectId: fx.projectId, title: 'grandchild', parentTaskId: ids.child }).id;
  ids.sibling = fx.newTask('sibling');
  ids.other = services.domain.tasks.create({ projectId: other.id, title: 'secret work' }).id;

  const knowledge = new ProjectKnowledge(services.db);
  const groups = new ProductGroupStore(services.db, services.domain);
  const { workbench, inbound } = routingStores(services);
  const channelId = (services.db.prepare('SELECT id FROM harness_channels').get() as { id: number }).id;
  const approvalFor = (taskId: number, tag: string) =>
    approvalStores(services).approvals.open({ taskId, executionId: null, cli: 'claude-code', toolName: 'Bash', callHash: `hash of ${tag}`, cwd: null, shown: tag }).approval.id;
  const recordsOf = async (taskId: number, projectId: number, workspaceId: number, tag: string): Promise<Targets> => {
    const execution = fx.running(taskId);
    const message = await fx.call<{ messageId: number }>(notifyHuman, { taskId, message: `progress of ${tag}` });
    workbench.addEvent({ parentTaskId: taskId, kind: 'CHILD_TURN_ENDED', priority: 'normal', dedupKey: `reach:${tag}`, payload: {} } as never);
    const batch = workbench.claimBatch(taskId, 60_000, () => `batch of ${tag}`)!;
    const request = inbound.storeTaskContext({
      platform: 'telegram', chatId: '4242', platformMessageId: `m-${tag}`, threadId: null, rootMessageId: null, senderId: '4242', channelId,
      kind: 'task_context', request: 'continue', text: tag, taskId, projectId,
    } as never);
    return {
      task: taskId,
      execution,
      project: projectId,
      workspace: workspaceId,
      label: services.domain.labels.create({ projectId, name: `label-${tag}` }).id,
      note: knowledge.notes.create({ projectId, taskId: null, title: `note of ${tag}`, body: '' }).id,
      asset: knowledge.assets.add({ projectId, name: `asset-${tag}`, kind: 'text', uri: 'x', description: '' }).id,
      'product group': groups.create({ workspaceId, name: `group-${tag}`, description: '', projectIds: [projectId] }).id,
      message: message.messageId,
      batch: batch.batchId,
      inbound: request.id,
      approval: approvalFor(taskId, tag),
    };
  };
  mine = await recordsOf(ids.child, fx.projectId, fx.workspaceId, 'mine');
  otherProject = await recordsOf(ids.other, ids.otherProject, ids.otherWorkspace, 'other');
  // The caller's own batch (a batch is delivered to a parent), and a sibling's records in the same project.
  workbench.addEvent({ parentTaskId: ids.own, kind: 'CHILD_TURN_ENDED', priority: 'normal', dedupKey: 'reach:own', payload: {} } as never);
  mine.batch = workbench.claimBatch(ids.own, 60_000, () => 'own batch')!.batchId;
  workbench.delivered(mine.batch);
  const siblingExecution = fx.running(ids.sibling);
  const siblingMessage = await fx.call<{ messageId: number }>(notifyHuman, { taskId: ids.sibling, message: 'sibling progress' });
  workbench.addEvent({ parentTaskId: ids.sibling, kind: 'CHILD_TURN_ENDED', priority: 'normal', dedupKey: 'reach:sibling', payload: {} } as never);
  sibling = { task: ids.sibling, execution: siblingExecution, message: siblingMessage.messageId, batch: workbench.claimBatch(ids.sibling, 60_000, () => 'b')!.batchId, approval: approvalFor(ids.sibling, 'sibling') };
  const ownExecution = fx.running(ids.own);
  const ownMessage = await fx.call<{ messageId: number }>(notifyHuman, { taskId: ids.own, message: 'parent progress' });
  parentOfChild = { task: ids.own, execution: ownExecution, message: ownMessage.messageId, batch: mine.batch, approval: approvalFor(ids.own, 'parent') };

  // Name each feature resolver by the records it resolves, from the tools that declare it.
  for (const tool of tools) {
    for (const [field, kind] of Object.entries(tool.reach?.names ?? {})) {
      if (typeof kind === 'string') continue;
      const named = FEATURE_FIELDS[field];
      if (!named) throw new Error(`${tool.name}.${field}: a new kind of record; add its fixture to this test`);
      RESOLVER_KIND.set(kind, named);
    }
  }
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

/** The input fields named through a feature's own resolver, and the record each names. */
const FEATURE_FIELDS: Record<string, string> = {
  noteId: 'note',
  assetId: 'asset',
  id: 'product group',
  messageId: 'message',
  batchId: 'batch',
  inboundId: 'inbound',
  approvalId: 'approval',
};

/** The adapter's invoker for a caller bound to `taskId` (as `svc mcp` with its credential, or /mcp with a `--task` token). */
function invokerFor(taskId: number): McpCallerInvoker {
  const caller: OperationCaller = { via: 'mcp', mcpProfile: 'full', taskId };
  authenticateMcpCaller(fx.services, 'full', {}, caller);
  return new McpCallerInvoker({
    registry: new OperationRegistry(definition.toolsOf('full')),
    profile: 'full',
    authenticate: async () => fx.services,
    services: async () => fx.services,
    caller,
  });
}

/** A valid input of the tool's schema: each named field from `targets`, every other required field a plain value. */
function inputFor(tool: AnyOperation, targets: Targets, only?: string): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Json>; required?: string[] };
  const input: Record<string, unknown> = {};
  for (const field of schema.required ?? []) input[field] = plainValue(schema.properties![field]!);
  for (const field of Object.keys(tool.reach?.names ?? {})) {
    if (only !== undefined && field !== only && !(schema.required ?? []).includes(field)) continue;
    const value = (field === only ? targets : mine)[kindOf(field, tool)];
    if (value !== undefined) input[field] = value;
  }
  return input;
}

type Json = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Json[];
  minimum?: number;
  items?: Json;
  minItems?: number;
  format?: string;
  properties?: Record<string, Json>;
  required?: string[];
};
function plainValue(schema: Json): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return plainValue(schema.anyOf[0]!);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 'x';
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems ? [plainValue(schema.items ?? {})] : [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((field) => [field, plainValue(schema.properties![field]!)]));
    default:
      return 'x';
  }
}

async function codeOf(invoker: McpCallerInvoker, tool: AnyOperation, input: unknown): Promise<string> {
  try {
    await invoker.invoke(tool, input);
    return 'ok';
  } catch (error) {
    return SvcError.isInstance(error) ? error.code : `unexpected: ${String(error)}`;
  }
}

/** The tools whose input names a record, with each such field. */
const naming = () => tools.flatMap((tool) => Object.keys(tool.reach?.names ?? {}).map((field) => ({ tool, field })));
/** Kinds a sibling or a parent is reached through (a project's records are the caller's to reach). */
const TASK_KINDS: ReadonlySet<string> = new Set<RecordKind | string>(['task', 'execution', 'message', 'batch', 'approval']);
/** What the messaging tools that speak for the caller's own task answer for another task (before the input is parsed). */
const refusal = (tool: AnyOperation, field: string) => (tool.callerTaskField === field ? 'task_mismatch' : 'task_out_of_scope');

describe('a task-bound caller reaches its own task, the tasks below it and its project', () => {
  test('every MCP tool declares what its input names, or that a task may not call it', () => {
    expect(tools.filter((tool) => tool.reach === undefined).map((tool) => tool.name)).toEqual([]);
    // A field whose name says it names a record is declared, but for the chat platform's own ids and a
    // capability request, which its handler reads only within the task the call names.
    const platformIds = new Set(['chatId', 'threadId', 'senderId', 'platformMessageId', 'rootMessageId', 'replyToMessageId', 'requestId']);
    const undeclared = tools
      .filter((tool) => tool.reach!.taskCaller === undefined)
      .flatMap((tool) =>
        Object.keys((tool.input as z.ZodObject).shape)
          .filter((field) => /(^id|Id|Ids)$/.test(field) && !platformIds.has(field) && !(field in (tool.reach!.names ?? {})))
          .map((field) => `${tool.name}.${field}`),
      );
    expect(undeclared).toEqual([]);
    // A tool that names nothing answers only lists narrowed to the caller's project: it changes nothing.
    const namesNothing = tools.filter((tool) => tool.reach!.taskCaller === undefined && Object.keys(tool.reach!.names ?? {}).length === 0);
    expect(namesNothing.filter((tool) => !tool.readOnly).map((tool) => tool.name)).toEqual([]);
  });

  test('each named record of another project is refused', async () => {
    const invoker = invokerFor(ids.own);
    const answers: string[] = [];
    for (const { tool, field } of naming()) {
      const code = await codeOf(invoker, tool, inputFor(tool, otherProject, field));
      if (code !== refusal(tool, field)) answers.push(`${tool.name}.${field} (${kindOf(field, tool)}): ${code}`);
    }
    expect(answers).toEqual([]);
  }, 60_000);

  test("each named task, execution, message or batch of a sibling in the same project is refused, and of the caller's parent", async () => {
    const answers: string[] = [];
    for (const [caller, targets] of [
      [ids.own, sibling],
      [ids.child, parentOfChild],
    ] as const) {
      const invoker = invokerFor(caller);
      for (const { tool, field } of naming()) {
        if (!TASK_KINDS.has(kindOf(field, tool))) continue;
        const code = await codeOf(invoker, tool, inputFor(tool, targets, field));
        if (code !== refusal(tool, field)) answers.push(`task ${caller}: ${tool.name}.${field}: ${code}`);
      }
    }
    expect(answers).toEqual([]);
  }, 60_000);

  test('the same calls naming its own records, its child and its project are not refused for reach', async () => {
    const invoker = invokerFor(ids.own);
    const refused: string[] = [];
    // What destroys runs last, so every call finds the records it names.
    const calls = naming().sort((a, b) => Number(Boolean(a.tool.destructive)) - Number(Boolean(b.tool.destructive)));
    for (const { tool, field } of calls) {
      const targets = { ...mine, ...(tool.callerTaskField === field ? { task: ids.own } : {}) };
      const code = await codeOf(invoker, tool, inputFor(tool, targets, field));
      // (A handler may be stricter still: the capability tools answer only for the caller's own task.)
      if (code === 'task_out_of_scope' || code.startsWith('unexpected')) refused.push(`${tool.name}.${field}: ${code}`);
    }
    expect(refused).toEqual([]);
  }, 60_000);

  test('tools that change workspaces, projects, product groups or speak for a gateway are refused whatever they name', async () => {
    const invoker = invokerFor(ids.own);
    const refusedTools = tools.filter((tool) => tool.reach?.taskCaller === 'refused');
    // As rules over the declarations: every write of a workspace, a project or a product group, and
    // every gateway or operations tool a Workbench's terminal is not offered, is among them.
    const offeredToTask = new Set(definition.toolsOf('task').map((tool) => tool.name));
    const mustRefuse = tools.filter(
      (tool) =>
        (!tool.readOnly && ['workspace', 'project', 'product_group'].includes(tool.group)) ||
        (['gateway', 'operations'].includes(definition.surfaceOf(tool)) && !offeredToTask.has(tool.name)),
    );
    expect(mustRefuse.length).toBeGreaterThan(0);
    expect(mustRefuse.filter((tool) => !refusedTools.includes(tool)).map((tool) => tool.name)).toEqual([]);
    for (const tool of refusedTools) {
      // A tool that says who sent a platform message is refused for want of the gateway's credential first.
      const expected = 'senderId' in (tool.input as z.ZodObject).shape ? 'gateway_credential_required' : 'task_out_of_scope';
      expect([tool.name, await codeOf(invoker, tool, inputFor(tool, mine))]).toEqual([tool.name, expected]);
    }
    // Another caller (a person's own MCP client) is not narrowed.
    const person = new McpCallerInvoker({
      registry: new OperationRegistry(definition.toolsOf('full')),
      profile: 'full',
      authenticate: async () => fx.services,
      services: async () => fx.services,
      caller: { via: 'mcp', mcpProfile: 'full' },
    });
    expect((await person.invoke('get_task', { id: ids.other })).title).toBe('secret work');
  });

  test("a project's Workbench reaches every task of its project, and nothing of another project", async () => {
    const workbench = transaction(fx.services.db, () => routingStores(fx.services).workbench.ensureWorkbench(fx.projectId));
    const invoker = invokerFor(workbench);
    const getTask = tools.find((tool) => tool.name === 'get_task')!;
    const diff = tools.find((tool) => tool.name === 'get_task_diff')!;
    expect(await codeOf(invoker, getTask, { id: ids.sibling })).toBe('ok');
    expect(await codeOf(invoker, diff, { taskId: ids.sibling })).not.toBe('task_out_of_scope');
    expect(await codeOf(invoker, getTask, { id: ids.other })).toBe('task_out_of_scope');
    expect(await codeOf(invoker, diff, { taskId: ids.other })).toBe('task_out_of_scope');
    // Its children reach it no more than any child reaches its parent.
    const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'work request', parentTaskId: workbench }).id;
    expect(await codeOf(invokerFor(child), getTask, { id: workbench })).toBe('task_out_of_scope');
  });

  test('lists and searches answer only the caller project', async () => {
    const invoker = invokerFor(ids.own);
    const tasks = (await invoker.invoke('list_tasks', {})) as { items: { projectId: number }[] };
    expect(new Set(tasks.items.map((task) => task.projectId))).toEqual(new Set([fx.projectId]));
    expect(((await invoker.invoke('list_projects', {})) as { items: { id: number }[] }).items.map((project) => project.id)).toEqual([fx.projectId]);
    expect(((await invoker.invoke('list_workspaces', {})) as { items: { id: number }[] }).items.map((workspace) => workspace.id)).toEqual([fx.workspaceId]);
    const executions = (await invoker.invoke('list_executions', {})) as { items: { taskId: number }[] };
    expect(executions.items.map((execution) => execution.taskId)).not.toContain(ids.other);
    const hits = (await invoker.invoke('global_search', { query: 'secret' })) as { hits: unknown[] };
    expect(JSON.stringify(hits)).not.toContain('secret work');
    // A name is resolved as the handler resolves it, then checked: another project by its name is refused too.
    expect(await codeOf(invoker, definition.all().find((tool) => tool.name === 'create_task')!, { projectId: 'bravo', title: 'planted' })).toBe('task_out_of_scope');
    expect(await codeOf(invoker, definition.all().find((tool) => tool.name === 'list_labels')!, { projectId: 'bravo' })).toBe('task_out_of_scope');
  });
});
