import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { InboundIdField, TaskIdField } from '../operations/harness-schemas.js';
import { assertWorkbenchCaller, GATEWAY_INBOUND_RECORD } from './assert-workbench-caller.js';
import { routingStores } from './routing-stores.js';

export const confirmGatewayTaskCreated = defineOperation({
  name: 'confirm_gateway_task_created',
  group: 'gateway',
  // The Workbench (a task terminal) calls it; over MCP only its own terminal may, never the gateway's agent.
  mcp: { alsoIn: ['task'], notIn: ['gateway'] },
  description:
    'Workbench: after create_task succeeded for a GATEWAY_WORK_REQUEST, bind the new task to that request (its FINAL_RESULT goes back to the same chat). ' +
    'Call only after create_task; a second call with the same task is a no-op.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { inboundId: GATEWAY_INBOUND_RECORD, taskId: 'task' } },
  input: z.object({ inboundId: InboundIdField, taskId: TaskIdField }).strict(),
  output: z.object({ inboundId: z.number(), taskId: z.number() }),
  http: { method: 'PATCH', path: '/api/internal/harness/gateway' },
  handler(input, ctx) {
    const stores = routingStores(ctx.services);
    const inbound = stores.inbound.get(input.inboundId);
    const task = ctx.services.domain.tasks.get(input.taskId);
    if (inbound.request !== 'work' || inbound.state !== 'PROCESSED') {
      throw new SvcError({ code: 'not_a_work_request', message: `inbound ${inbound.id} is not a routed work request`, details: { inboundId: inbound.id } });
    }
    if (inbound.projectId !== null) assertWorkbenchCaller(ctx, stores, { projectId: inbound.projectId }, 'confirm_gateway_task_created');
    if (task.projectId !== inbound.projectId) {
      throw new SvcError({ code: 'invalid_request', message: `task ${task.id} is not in the project of inbound ${inbound.id}`, details: { inboundId: inbound.id, taskId: task.id } });
    }
    if (inbound.taskId !== null && inbound.taskId !== task.id) {
      throw new SvcError({ code: 'already_confirmed', message: `inbound ${inbound.id} is bound to task ${inbound.taskId} already`, details: { inboundId: inbound.id, taskId: inbound.taskId } });
    }
    stores.inbound.setTask(inbound.id, task.id);
    return { inboundId: inbound.id, taskId: task.id };
  },
});
