import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { defineOperation } from '@svc-org/host/operation-framework';
import { CapabilityDefinition, MCP_PROFILES, parseMcpProfile } from '@svc-org/host/adapters/mcp';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';

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
    // Secrets, hooks, a person's consent and the notification center are a person's own doors: whole groups that are no tool.
    for (const group of ['connection', 'hooks', 'extension', 'mcp_token', 'harness', 'gateway_settings']) {
      const ofGroup = OPERATIONS.filter((operation) => operation.group === group);
      expect(ofGroup.length, group).toBeGreaterThan(0);
      expect(ofGroup.filter((operation) => names.includes(operation.name)).map((operation) => operation.name), group).toEqual([]);
    }
    // An operation of a tool group that says it is no tool is none either (the board, review comments, a capability's completion).
    const closedInToolGroups = OPERATIONS.filter((operation) => operation.mcp === false && definition.surfaceOf(operation) !== undefined);
    expect(closedInToolGroups.length).toBeGreaterThan(0);
    for (const profile of MCP_PROFILES) expect(definition.toolsOf(profile).filter((tool) => tool.mcp === false).map((tool) => tool.name), profile).toEqual([]);
    expect([...names].sort()).toEqual(OPERATIONS.filter((operation) => operation.mcp !== false).map((operation) => operation.name).sort());
  });

  test("the task profile (a Workbench's terminal) offers the gateway tools the Workbench calls, and no other gateway tool", () => {
    const definition = new CapabilityDefinition(OPERATIONS);
    const tools = definition.toolsOf('task');
    const ofSurface = (surface: string) => tools.filter((tool) => definition.surfaceOf(tool) === surface).map((tool) => tool.name).sort();
    // The gateway's tools a Workbench calls say so in their declarations; no other gateway or operations tool is there.
    const called = OPERATIONS.filter((operation) => definition.surfaceOf(operation) === 'gateway' && operation.mcp && operation.mcp.alsoIn?.includes('task'));
    expect(called.length).toBeGreaterThan(0);
    expect(ofSurface('gateway')).toEqual(called.map((operation) => operation.name).sort());
    expect(ofSurface('operations')).toEqual([]);
    // And every tool of the Workbench's own surface (its batches).
    expect(ofSurface('workbench')).toEqual(OPERATIONS.filter((operation) => operation.mcp !== false && definition.surfaceOf(operation) === 'workbench').map((operation) => operation.name).sort());
    expect(ofSurface('workbench')).toContain('ack_workbench_batch');
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
