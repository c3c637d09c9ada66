// Capability tools: discovery of what the configured gateways offer, bounded Direct
// requests with minimal status, minimal result reads, read-only reconciliation and the completion
// callback. None of them grants an authorization the channels do not already give.
import { randomUUID } from 'node:crypto';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { transaction } from '@svc-org/host/platform/db';
import { defineOperation, type OperationContext } from '@svc-org/host/operation-framework';
import { resolveCallerTask, withTaskToken } from '../messaging/index.js';
import { queuePlatformMessage } from '../routing/queue-platform-message.js';
import { routingStores, type RoutingStores } from '../routing/routing-stores.js';
import { capabilityCatalog } from './capability-catalog.js';

const RequestId = z.string().uuid().describe('capability request id');
const RequestStatus = z.enum(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'UNVERIFIED']);
const TaskId = z.number().int().positive().optional().describe('the requesting task; defaults to this terminal\'s task');

function scopeOf(ctx: OperationContext, taskId: number | undefined) {
  const owner = resolveCallerTask(ctx, taskId);
  const stores = routingStores(ctx.services);
  return { owner, stores, channels: stores.channels.activeFor({ workspaceId: owner.workspaceId, projectId: owner.projectId }) };
}

interface RequestRow {
  id: string;
  capability: string;
  requester_task_id: number | null;
  message_id: number | null;
  completed_at: string | null;
}

function readRequest(stores: RoutingStores, ctx: OperationContext, id: string, taskId: number | undefined): { row: RequestRow; status: z.infer<typeof RequestStatus>; state: string | null } {
  const owner = resolveCallerTask(ctx, taskId);
  const row = ctx.services.db.prepare('SELECT * FROM harness_capability_requests WHERE id = ?').get(id) as RequestRow | undefined;
  // Another task's request reads as absent: a request id is not a capability to someone else's results.
  if (!row || row.requester_task_id !== owner.taskId) {
    throw new SvcError({ code: 'capability_request_not_found', message: `no capability request ${id} for task ${owner.taskId}`, details: { requestId: id } });
  }
  const out = row.message_id !== null ? (ctx.services.db.prepare('SELECT state FROM harness_outbound WHERE message_id = ?').get(row.message_id) as { state: string } | undefined) : undefined;
  const state = out?.state ?? null;
  const status = state === 'SENT' ? 'SUCCEEDED' : state === 'FAILED' ? 'FAILED' : state === 'SENT_UNVERIFIED' ? 'UNVERIFIED' : state === 'SENDING' ? 'RUNNING' : 'PENDING';
  return { row, status, state };
}

export const listCapabilities = defineOperation({
  name: 'list_capabilities',
  group: 'capability',
  description: 'Discover the external capabilities the configured gateways offer this task\'s scope, with where they may act and whether they run Direct or as a Job.',
  readOnly: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: TaskId }).strict(),
  output: z.object({
    capabilities: z.array(z.object({ name: z.string(), gateway: z.string(), kind: z.enum(['openclaw', 'hermes']), mode: z.enum(['direct', 'job']), description: z.string(), targets: z.array(z.string()) })),
  }),
  http: { method: 'GET', path: '/api/internal/harness/capabilities' },
  handler(input, ctx) {
    const { stores, channels } = scopeOf(ctx, input.taskId === undefined ? undefined : Number(input.taskId));
    return { capabilities: capabilityCatalog(stores, channels) };
  },
});

export const requestCapability = defineOperation({
  name: 'request_capability',
  group: 'capability',
  description:
    'Submit one bounded Direct capability request (message.send: one text to a target list_capabilities names), idempotent by key. Answers at once with a ' +
    'minimal status; read it later with get_capability_request. Grants no authorization the channels have not given.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: TaskId,
      capability: z.literal('message.send'),
      gateway: z.string().min(1).max(100).optional(),
      input: z.object({ to: z.string().min(1).max(200), threadId: z.string().min(1).max(100).optional(), text: z.string().min(1).max(4000) }).strict(),
      idempotencyKey: z.string().min(1).max(200),
    })
    .strict(),
  output: z.object({ requestId: z.string(), status: RequestStatus, created: z.boolean() }),
  http: { method: 'POST', path: '/api/internal/harness/capabilities' },
  handler(input, ctx) {
    const { owner, stores, channels } = scopeOf(ctx, input.taskId);
    const offered = capabilityCatalog(stores, channels).find((c) => c.name === input.capability && (input.gateway === undefined || c.gateway === input.gateway));
    if (!offered || !offered.targets.includes(input.input.to)) {
      throw new SvcError({
        code: 'capability_not_offered',
        message: `${input.capability} to ${input.input.to} is not offered to task ${owner.taskId}`,
        details: { capability: input.capability, fix: 'list_capabilities shows what this scope may do; a channel must name the target' },
      });
    }
    const channel = channels.find((c) => c.gateway === offered.gateway && [c.home.to, ...c.targets.map((t) => t.to), ...c.trustedGroups].includes(input.input.to))!;
    const key = `${owner.taskId}:${input.idempotencyKey}`;
    const created = transaction(ctx.services.db, () => {
      const existing = ctx.services.db.prepare('SELECT id FROM harness_capability_requests WHERE idempotency_key = ?').get(key) as { id: string } | undefined;
      if (existing) return { id: existing.id, created: false };
      const { messageId } = queuePlatformMessage(ctx.services.db, {
        kind: 'PUSH',
        taskId: owner.taskId,
        projectId: owner.projectId,
        workspaceId: owner.workspaceId,
        body: withTaskToken(input.input.text, owner.taskId),
        channelId: channel.id,
        gatewayId: channel.gatewayId,
        to: input.input.to,
        threadId: input.input.threadId ?? null,
      });
      const id = randomUUID();
      ctx.services.db
        .prepare('INSERT INTO harness_capability_requests (id, capability, gateway_id, idempotency_key, requester_task_id, message_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(id, input.capability, channel.gatewayId, key, owner.taskId, messageId, new Date().toISOString());
      return { id, created: true };
    });
    if (created.created) stores.events.emit('enqueued');
    const { status } = readRequest(stores, ctx, created.id, owner.taskId);
    return { requestId: created.id, status, created: created.created };
  },
});

export const getCapabilityRequest = defineOperation({
  name: 'get_capability_request',
  group: 'capability',
  description: 'Read the minimal status of one of this task\'s capability requests.',
  readOnly: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: TaskId, requestId: RequestId }).strict(),
  output: z.object({ requestId: z.string(), capability: z.string(), status: RequestStatus }),
  handler(input, ctx) {
    const { row, status } = readRequest(routingStores(ctx.services), ctx, input.requestId, input.taskId);
    return { requestId: row.id, capability: row.capability, status };
  },
});

export const reconcileCapabilityJob = defineOperation({
  name: 'reconcile_capability_job',
  group: 'capability',
  description: 'Read-only reconciliation: the authoritative status of a request from the service\'s own delivery record. Changes nothing.',
  readOnly: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: TaskId, requestId: RequestId }).strict(),
  output: z.object({ requestId: z.string(), status: RequestStatus, externalStatus: z.string().nullable() }),
  handler(input, ctx) {
    const { row, status, state } = readRequest(routingStores(ctx.services), ctx, input.requestId, input.taskId);
    return { requestId: row.id, status, externalStatus: state };
  },
});

export const reportCapabilityCompletion = defineOperation({
  name: 'report_capability_completion',
  group: 'capability',
  // The completion callback of a capability job: an internal route only.
  mcp: false,
  description:
    'Internal: a gateway reports that an external request finished. Scoped to the requesting task; the status is then read from the service\'s own record ' +
    '(the callback\'s claim is not trusted) and the task\'s Workbench is woken with one event.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ taskId: z.number().int().positive(), requestId: RequestId }).strict(),
  output: z.object({ requestId: z.string(), status: RequestStatus, woke: z.boolean() }),
  http: { method: 'POST', path: '/api/internal/harness/capabilities/completions', status: 202 },
  handler(input, ctx) {
    const stores = routingStores(ctx.services);
    const { row, status } = readRequest(stores, ctx, input.requestId, input.taskId);
    const task = ctx.services.domain.tasks.get(input.taskId);
    const parent = task.parentTaskId ?? stores.workbench.workbenchOf(task.projectId) ?? null;
    let woke = false;
    if (parent !== null && parent !== task.id) {
      woke =
        stores.workbench.addEvent({
          parentTaskId: parent,
          kind: 'CAPABILITY_JOB_COMPLETED',
          priority: status === 'FAILED' ? 'high' : 'normal',
          dedupKey: `capability:${row.id}`,
          sourceTaskId: task.id,
          payload: { requestId: row.id, capability: row.capability, status, summary: `${row.capability} ${status}` },
        }) !== undefined;
      if (woke) stores.events.emit('workbench', parent);
    }
    ctx.services.db.prepare('UPDATE harness_capability_requests SET completed_at = COALESCE(completed_at, ?) WHERE id = ?').run(new Date().toISOString(), row.id);
    return { requestId: row.id, status, woke };
  },
});
