// What the task-reach check costs a call through the MCP invoker, counted in task reads (the check
// runs before every tool call of every caller): nothing for a caller not bound to a task, and for a
// task-bound caller naming its own task, one read of that task, not two. Real database.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { CapabilityDefinition } from '@svc-org/host/adapters/mcp/capability-definition';
import { McpCallerInvoker } from '@svc-org/host/adapters/mcp/mcp-caller-invoker';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { OperationRegistry, type OperationCaller } from '@svc-org/host/operation-framework';
import { openHarnessFixture, type HarnessFixture } from './support/harness-fixture.js';

const definition = new CapabilityDefinition(ALL_OPERATIONS.list());
let fx: HarnessFixture;
let own: number;

beforeAll(async () => {
  fx = await openHarnessFixture();
  own = fx.newTask('caller');
});

afterAll(async () => {
  vi.restoreAllMocks();
  await fx?.close();
});

function invokerFor(caller: OperationCaller): McpCallerInvoker {
  return new McpCallerInvoker({
    registry: new OperationRegistry(definition.toolsOf('full')),
    profile: 'full',
    authenticate: async () => fx.services,
    services: async () => fx.services,
    caller,
  });
}

/** How many times one get_task call reads a task through the task store (the handler reads its task with the view's facts, not there). */
async function taskReadsOf(invoker: McpCallerInvoker, id: number): Promise<number> {
  const find = vi.spyOn(fx.services.domain.tasks, 'find');
  try {
    expect((await invoker.invoke('get_task', { id })).id).toBe(id);
    return find.mock.calls.length;
  } finally {
    find.mockRestore();
  }
}

test('a caller not bound to a task: the check reads no task', async () => {
  expect(await taskReadsOf(invokerFor({ via: 'mcp', mcpProfile: 'full' }), own)).toBe(0);
});

test('a task-bound caller naming its own task: the check reads it once', async () => {
  expect(await taskReadsOf(invokerFor({ via: 'mcp', mcpProfile: 'full', taskId: own }), own)).toBe(1);
});
