import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { defineOperation } from '@svc-org/host/operation-framework';
import { CapabilityDefinition, MCP_PROFILES, parseMcpProfile } from '@svc-org/host/adapters/mcp';
import { ALL_OPERATIONS } from '@svc-org/host/app/all-operations';

const OPERATIONS = ALL_OPERATIONS.list();

const op = (name: string, group: string, readOnly = true) =>
  defineOperation({ name, group, description: name, readOnly, runsIn: 'any', input: z.object({}), output: z.object({}), handler: () => ({}) });

describe('the capability definition', () => {
  test('refuses an operation whose group it does not place', () => {
    expect(() => new CapabilityDefinition([op('frobnicate', 'widgets')])).toThrow('group "widgets", which the capability definition does not place');
  });

  test('refuses an operation that names a profile that does not exist', () => {
    const stray = defineOperation({ ...op('list_tasks', 'task'), mcp: { alsoIn: ['gateway-querry'] } });
    expect(() => new CapabilityDefinition([stray])).toThrow('operation list_tasks names MCP profile "gateway-querry", which does not exist');
  });

  test('an operation whose declaration says it is no tool is none, whatever its group', () => {
    const definition = new CapabilityDefinition([op('list_tasks', 'task'), defineOperation({ ...op('get_board', 'task'), mcp: false })]);
    expect(definition.all().map((tool) => tool.name)).toEqual(['list_tasks']);
  });

  test('keeps connections, hooks, extension consent, tokens and the notification center out of MCP and every other operation in full', () => {
    const definition = new CapabilityDefinition(OPERATIONS);
    const names = definition.toolsOf('full').map((tool) => tool.name);
    for (const name of ['create_connection', 'report_stop_hook', 'enable_extension', 'create_mcp_token', 'list_harness_messages', 'create_gateway', 'get_board', 'send_review_comments', 'report_capability_completion']) {
      expect(names).not.toContain(name);
    }
    expect(names.length).toBe(OPERATIONS.filter((o) => o.mcp !== false).length);
  });

  test("the task profile (a Workbench's terminal) offers the gateway tools the Workbench calls, and no other gateway tool", () => {
    const names = new CapabilityDefinition(OPERATIONS).toolsOf('task').map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['complete_gateway_discussion', 'confirm_gateway_task_created', 'complete_gateway_work', 'ack_workbench_batch']));
    expect(names).not.toContain('route_gateway_message');
    expect(names).not.toContain('provision_remote_project');
  });

  test('the gateway profile sees no core or terminal tool that writes; reply_to_ask and answer_approval only for a named sender', () => {
    const definition = new CapabilityDefinition(OPERATIONS);
    const writes = definition.toolsOf('gateway').filter((tool) => !tool.readOnly && !['gateway', 'operations'].includes(tool.group));
    expect(writes.map((tool) => tool.name).sort()).toEqual(['answer_approval', 'reply_to_ask']);
    for (const tool of ['reply_to_ask', 'answer_approval']) {
      expect(definition.needsSender('gateway', tool)).toBe(true);
      expect(definition.needsSender('full', tool)).toBe(false);
    }
  });

  test('profiles parse strictly: unset is full, anything unknown is refused', () => {
    expect(parseMcpProfile(undefined)).toBe('full');
    expect(parseMcpProfile('')).toBe('full');
    for (const profile of MCP_PROFILES) expect(parseMcpProfile(profile)).toBe(profile);
    expect(() => parseMcpProfile('FULL')).toThrow(expect.objectContaining({ code: 'unknown_mcp_profile' }));
  });
});

describe("a channel-scoped caller's reads", () => {
  test('every read-only tool of the gateway-side profiles says in its declaration how it stays within the channel', () => {
    const definition = new CapabilityDefinition(OPERATIONS);
    const reads = new Set(['gateway', 'gateway-query'].flatMap((profile) => definition.toolsOf(profile as 'gateway').filter((tool) => tool.readOnly).map((tool) => tool.name)));
    const unplaced = [...reads].filter((name) => ALL_OPERATIONS.get(name)!.readScope === undefined);
    expect(unplaced).toEqual([]);
    // No rule on an operation such a caller cannot read: a rule says what it scopes.
    expect(OPERATIONS.filter((op) => op.readScope !== undefined && !reads.has(op.name)).map((op) => op.name)).toEqual([]);
  });
});
