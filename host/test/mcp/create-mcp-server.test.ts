// The MCP adapter's tools/call, through the SDK's own client over its in-memory transport: an answer
// leaves as the adapter built it, the calls the SDK refuses for the adapter stay refused, and a
// connection's caller is authenticated once.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { createMcpServer } from '../../src/adapters/mcp/index.js';
import { SvcError } from '@svc-org/ai-sdk';
import { CapabilityDefinition } from '../../src/adapters/mcp/capability-definition.js';
import { McpCallerInvoker } from '../../src/adapters/mcp/mcp-caller-invoker.js';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { OperationInvoker, OperationRegistry } from '../../src/operation-framework/index.js';

let home: string;
let services: HostServices;
let taskId: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-create-mcp-server-'));
  services = await openHostServices({ env: { SVC_HOME: home }, extensions: false });
  const workspace = services.domain.workspaces.create({ name: 'w' });
  mkdirSync(join(home, 'repo'));
  const projectId = services.domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: join(home, 'repo') }).id;
  taskId = services.domain.tasks.create({ projectId, title: 'one' }).id;
});
afterAll(async () => {
  await services.close();
  rmSync(home, { recursive: true, force: true });
});

/** The full profile's server, and every message it sends as the object it handed its transport. */
async function connected(): Promise<{ client: Client; sent: JSONRPCMessage[]; answered: unknown[] }> {
  const definition = new CapabilityDefinition(ALL_OPERATIONS.list());
  const answered: unknown[] = [];
  const operations = new OperationInvoker({ registry: new OperationRegistry(definition.toolsOf('full')), services: async () => services, caller: { via: 'mcp', mcpProfile: 'full' } });
  // The real invoker, whose answers are kept to compare with what leaves.
  const invoker = Object.assign(Object.create(operations) as OperationInvoker, {
    invoke: async (...args: Parameters<OperationInvoker['invoke']>) => {
      const output = await operations.invoke(...args);
      answered.push(output);
      return output;
    },
  });
  const server = createMcpServer({ tools: { definition, invoker }, profile: 'full', version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: JSONRPCMessage[] = [];
  const send = serverSide.send.bind(serverSide);
  (serverSide as Transport).send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return { client, sent, answered };
}

test("a tool's answer leaves as the adapter built it: the operation's checked output as structured content and as its JSON text, not copied again", async () => {
  const { client, sent, answered } = await connected();
  const result = await client.callTool({ name: 'get_task', arguments: { id: taskId } });
  expect(result.isError).toBeUndefined();
  expect(result.structuredContent).toMatchObject({ id: taskId, title: 'one', attention: 'idle' });
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
  const answer = sent.find((message) => 'result' in message && (message.result as { structuredContent?: unknown }).structuredContent !== undefined) as { result: { structuredContent: unknown } } | undefined;
  const structured = answer?.result.structuredContent;
  // The very object the operation answered (its output schema already let only its listed fields through).
  expect(structured).toBe(answered[0]);
  expect(CallToolResultSchema.safeParse(answer?.result).success).toBe(true);
  await client.close();
});

test('an error leaves as a tool result of its code, and a call that asks to run as a task is refused (the server runs no tool as a task)', async () => {
  const { client } = await connected();
  const missing = await client.callTool({ name: 'get_task', arguments: { id: 9999 } });
  expect(missing.isError).toBe(true);
  expect(JSON.parse((missing.content as { text: string }[])[0]!.text)).toMatchObject({ error: { code: 'task_not_found' } });
  await expect(client.request({ method: 'tools/call', params: { name: 'get_task', arguments: { id: taskId }, task: { ttl: 1000 } } }, CallToolResultSchema)).rejects.toThrow(
    /does not support task creation/,
  );
  // The server keeps serving.
  expect((await client.callTool({ name: 'get_task', arguments: { id: taskId } })).isError).toBeUndefined();
  await client.close();
});

test('the MCP invoker authenticates its caller once: later calls neither ask again nor wait for it, and a caller refused stays refused', async () => {
  const definition = new CapabilityDefinition(ALL_OPERATIONS.list());
  let asked = 0;
  const invoker = new McpCallerInvoker({
    registry: new OperationRegistry(definition.toolsOf('full')),
    profile: 'full',
    authenticate: async () => (asked++, services),
    services: async () => services,
    caller: { via: 'mcp', mcpProfile: 'full' },
  });
  for (let i = 0; i < 3; i++) expect((await invoker.invoke('get_task', { id: taskId })).id).toBe(taskId);
  expect(asked).toBe(1);

  let refusals = 0;
  const refused = new McpCallerInvoker({
    registry: new OperationRegistry(definition.toolsOf('full')),
    profile: 'full',
    authenticate: () => (refusals++, Promise.reject(new SvcError({ code: 'invalid_task_credential', message: 'no' }))),
    services: async () => services,
    caller: { via: 'mcp', mcpProfile: 'full' },
  });
  for (let i = 0; i < 2; i++) await expect(refused.invoke('get_task', { id: taskId })).rejects.toMatchObject({ code: 'invalid_task_credential' });
  expect(refusals).toBe(2);
});
