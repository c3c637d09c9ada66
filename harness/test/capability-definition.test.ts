import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { defineOperation } from '../../host/src/operations/index.js';
import { CapabilityDefinition, MCP_OPERATIONS, MCP_PROFILES, parseMcpProfile } from '../src/mcp/index.js';

const op = (name: string, group: string, readOnly = true) =>
  defineOperation({ name, group, description: name, readOnly, runsIn: 'any', input: z.object({}), output: z.object({}), handler: () => ({}) });

describe('the capability definition', () => {
  test('refuses an operation whose group it does not place', () => {
    expect(() => new CapabilityDefinition([op('frobnicate', 'widgets')])).toThrow('group "widgets", which the capability definition does not place');
  });

  test('refuses a profile naming a tool that is not declared', () => {
    expect(() => new CapabilityDefinition([op('list_tasks', 'task')])).toThrow(/profile (task|gateway-query) names tool \w+, which is not declared/);
  });

  test('keeps connections, hooks and extension consent out of MCP and every other operation in full', () => {
    const definition = new CapabilityDefinition(MCP_OPERATIONS);
    const names = definition.toolsOf('full').map((tool) => tool.name);
    expect(names).not.toContain('create_connection');
    expect(names).not.toContain('report_stop_hook');
    expect(names).not.toContain('enable_extension');
    expect(names.length).toBe(MCP_OPERATIONS.filter((o) => !['connection', 'hooks', 'extension'].includes(o.group)).length);
  });

  test("the task profile (a Workbench's terminal) offers the gateway tools the Workbench calls, and no other gateway tool", () => {
    const names = new CapabilityDefinition(MCP_OPERATIONS).toolsOf('task').map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['complete_gateway_discussion', 'confirm_gateway_task_created', 'complete_gateway_work', 'ack_workbench_batch']));
    expect(names).not.toContain('route_gateway_message');
    expect(names).not.toContain('provision_remote_project');
  });

  test('the gateway profile sees no core or terminal tool that writes; reply_to_ask only for a named sender', () => {
    const definition = new CapabilityDefinition(MCP_OPERATIONS);
    const writes = definition.toolsOf('gateway').filter((tool) => !tool.readOnly && !['gateway', 'operations'].includes(tool.group));
    expect(writes.map((tool) => tool.name)).toEqual(['reply_to_ask']);
    expect(definition.needsSender('gateway', 'reply_to_ask')).toBe(true);
    expect(definition.needsSender('full', 'reply_to_ask')).toBe(false);
  });

  test('profiles parse strictly: unset is full, anything unknown is refused', () => {
    expect(parseMcpProfile(undefined)).toBe('full');
    expect(parseMcpProfile('')).toBe('full');
    for (const profile of MCP_PROFILES) expect(parseMcpProfile(profile)).toBe(profile);
    expect(() => parseMcpProfile('FULL')).toThrow(expect.objectContaining({ code: 'unknown_mcp_profile' }));
  });
});
