import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ChatIdField, InboundIdField, PlatformField, PlatformMessageIdField } from '../operations/harness-schemas.js';
import { SenderIdField } from './inbound-fields.js';
import { routingStores } from './routing-stores.js';
import { requireOwner } from './sender-policy.js';

const Stage = z.object({ stage: z.string(), at: z.string().nullable(), state: z.string(), detail: z.string().optional() });

export const diagnoseGatewayRequest = defineOperation({
  name: 'diagnose_gateway_request',
  group: 'operations',
  description:
    'OWNER: one stage timeline for a platform request, redacted: inbound, routing, Workbench event and batch, child task, platform delivery. Name the ' +
    'request by inboundId or by its platform, chat and message id.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'OWNER of the chat only, one named request' },
  reach: { taskCaller: 'refused' },
  input: z
    .object({
      platform: PlatformField,
      chatId: ChatIdField,
      senderId: SenderIdField,
      inboundId: InboundIdField.optional(),
      platformMessageId: PlatformMessageIdField.optional(),
    })
    .strict(),
  output: z.object({ inboundId: z.number(), stages: z.array(Stage) }),
  http: { method: 'POST', path: '/api/internal/harness/gateway/diagnose' },
  handler(input, ctx) {
    const stores = routingStores(ctx.services);
    requireOwner(stores.channels, input, 'diagnose_gateway_request');
    const inbound =
      input.inboundId !== undefined
        ? stores.inbound.get(input.inboundId)
        : input.platformMessageId !== undefined
          ? stores.inbound.find({ platform: input.platform, chatId: input.chatId, platformMessageId: input.platformMessageId })
          : undefined;
    if (!inbound) throw new SvcError({ code: 'inbound_not_found', message: 'no such gateway inbound', details: { fix: 'give inboundId or platformMessageId' } });
    const stages: z.infer<typeof Stage>[] = [
      { stage: 'inbound', at: inbound.createdAt, state: 'STORED', detail: `${inbound.kind}/${inbound.request}, attempt ${inbound.attempts}` },
      {
        stage: 'routing',
        at: inbound.processedAt ?? inbound.updatedAt,
        state: inbound.state,
        detail: inbound.state === 'FAILED' ? `error ${inbound.lastErrorCode}` : `${inbound.routedBy ?? 'unrouted'} → ${inbound.result ?? '-'}${inbound.projectId !== null ? ` (project ${inbound.projectId})` : ''}`,
      },
    ];
    for (const event of stores.workbench.events({ inboundId: inbound.id })) {
      stages.push({ stage: 'workbench_event', at: event.createdAt, state: event.state, detail: `${event.kind} for task ${event.parentTaskId}` });
      if (event.batchId !== null) {
        const batch = stores.workbench.batch(event.batchId);
        stages.push({ stage: 'workbench_batch', at: batch.resolvedAt ?? batch.ackedAt ?? batch.deliveredAt ?? batch.createdAt, state: batch.state, detail: `batch ${batch.id}` });
      }
      const live = ctx.services.domain.executions.liveForTask(event.parentTaskId);
      stages.push({ stage: 'workbench_runtime', at: live?.startedAt ?? null, state: live ? live.status : 'NOT_RUNNING' });
    }
    if (inbound.taskId !== null) {
      const task = ctx.services.domain.tasks.find(inbound.taskId);
      stages.push({ stage: 'task', at: task?.updatedAt ?? null, state: task?.status ?? 'DELETED', detail: `task ${inbound.taskId}` });
    }
    const deliveries = ctx.services.db
      .prepare(
        `SELECT m.id, m.kind, m.status, m.updated_at, o.last_error_code FROM harness_messages m LEFT JOIN harness_outbound o ON o.message_id = m.id
         WHERE m.id = ? OR (m.kind = 'FINAL_RESULT' AND m.task_id = ?) ORDER BY m.id`,
      )
      .all(inbound.replyMessageId ?? -1, inbound.taskId ?? -1) as { id: number; kind: string; status: string; updated_at: string; last_error_code: string | null }[];
    for (const d of deliveries) {
      stages.push({ stage: 'delivery', at: d.updated_at, state: d.status, detail: `${d.kind} message ${d.id}${d.last_error_code ? `, last error ${d.last_error_code}` : ''}` });
    }
    return { inboundId: inbound.id, stages };
  },
});
