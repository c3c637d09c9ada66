// The reads a gateway's own agent may call for a reply it delegates (svcContext.allowedTools) are
// the operations whose declarations say `mcp: { delegatedRead: true }`, whichever MCP profile asked
// for the context: a task's Workbench, through `/mcp` with a task token, is handed the same reads as
// the gateway, though its own profile offers it fewer tools. A real service on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CapabilityDefinition } from '@svc-org/host/adapters/mcp';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { startService, type RunningService } from '@svc-org/app/start-service';
import { defineOperation } from '@svc-org/host/operation-framework';
import { McpTokenStore } from '../../src/mcp/tokens/mcp-token-store.js';
import { connectSvcMcpHttp } from '../../../test/support/svc-mcp-http-client.js';

const DELEGATED = ALL_OPERATIONS.list()
  .filter((operation) => operation.mcp && operation.mcp.delegatedRead)
  .map((operation) => operation.name)
  .sort();

let service: RunningService;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-delegated-reads-'));
  service = await startService({ env: { ...process.env, SVC_HOME: home, SVC_PORT: '0', SVC_LOG_LEVEL: 'error' }, builtins: false });
});
afterAll(async () => {
  await service?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the reads a reply delegates', () => {
  test('only a read-only operation may say it is a delegated read', () => {
    const write = { name: 'rename_task', group: 'task', description: 'x', readOnly: false, runsIn: 'any', input: z.object({}), output: z.object({}), handler: () => ({}) } as const;
    expect(() => defineOperation({ ...write, mcp: { delegatedRead: true } })).toThrow('operation rename_task changes svc: it cannot be a delegated read');
    expect(defineOperation({ ...write, readOnly: true, mcp: { delegatedRead: true } }).mcp).toEqual({ delegatedRead: true });
  });

  test("a task token's relay_channel_reply, through /mcp, is handed every delegated read, not its own profile's tools", async () => {
    expect(DELEGATED).toContain('resolve_gateway_task_context');
    // The task profile does not offer every delegated read itself.
    const own = new CapabilityDefinition(ALL_OPERATIONS.list()).toolsOf('task').map((tool) => tool.name);
    expect(DELEGATED.filter((name) => !own.includes(name)).length).toBeGreaterThan(0);

    const { domain, db } = service.services;
    const workspace = domain.workspaces.create({ name: 'delegating' });
    const project = domain.projects.create({ workspaceId: workspace.id, name: 'delegating', repoPath: home });
    const taskId = domain.tasks.create({ projectId: project.id, title: 'Delegated reads' }).id;
    const { token } = new McpTokenStore(db).create({ name: 'workbench', profile: 'task', taskId });
    const client = await connectSvcMcpHttp(service.url, token);
    try {
      const answer = await client.call('relay_channel_reply', { taskId, reply: 'what changed?' });
      expect(answer).toMatchObject({ kind: 'context_only', taskId, context: { svcContext: { task: { id: taskId }, mayChangeServiceState: false } } });
      expect([...answer.context.svcContext.allowedTools].sort()).toEqual(DELEGATED);
    } finally {
      await client.close();
    }
  });
});
