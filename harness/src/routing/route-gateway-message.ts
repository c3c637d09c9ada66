import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { transaction } from '@svc-org/host/platform/db';
import { defineOperation } from '@svc-org/host/operation-framework';
import { MessageTextField, NoOpField } from '../operations/harness-schemas.js';
import { InboundFields, InboundStatus } from './inbound-fields.js';
import { resolveProject } from './resolve-project.js';
import { routingStores } from './routing-stores.js';
import { requireOwner } from './sender-policy.js';

export const routeGatewayMessage = defineOperation({
  name: 'route_gateway_message',
  group: 'gateway',
  description:
    'OWNER stateful entry for a platform message about the service: stored once (deduplicated by platform, chat and message id), then routed to a project ' +
    '(task binding, thread binding, explicit project, identify_project, recent project, channel default) and handed to its Workbench as a ' +
    'GATEWAY_DISCUSSION_REQUEST, or GATEWAY_WORK_REQUEST for an explicit create/start. A duplicate answers in_progress or already_processed with noOp.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z
    .object({
      ...InboundFields,
      text: MessageTextField,
      kind: z.enum(['discussion', 'work']).default('discussion').describe('work = an explicit create/start request'),
      project: z.string().min(1).max(200).optional().describe('a project the person named explicitly (name or id)'),
      replyToMessageId: z.string().min(1).max(256).optional().describe('the platform message this one replies to'),
      mode: z.string().max(40).optional().describe('legacy; DIRECT is refused with direct_not_supported'),
    })
    .strict(),
  output: z.object({
    status: InboundStatus,
    inboundId: z.number(),
    projectId: z.number().nullable(),
    taskId: z.number().nullable(),
    workbenchTaskId: z.number().nullable(),
    event: z.enum(['GATEWAY_DISCUSSION_REQUEST', 'GATEWAY_WORK_REQUEST']).nullable(),
    routedBy: z.string().nullable(),
    candidates: z.array(z.object({ projectId: z.number(), name: z.string() })),
    noOp: NoOpField,
  }),
  http: { method: 'POST', path: '/api/internal/harness/gateway' },
  async handler(input, ctx) {
    if (input.mode !== undefined && input.mode.toUpperCase() === 'DIRECT') {
      throw new SvcError({
        code: 'direct_not_supported',
        message: 'the DIRECT routing mode is no longer supported; nothing was stored',
        details: { fix: 'leave mode out: the message is routed to the project Workbench' },
      });
    }
    const stores = routingStores(ctx.services);
    const policy = requireOwner(stores.channels, input, 'route_gateway_message');
    const place = {
      platform: input.platform,
      chatId: input.chatId,
      threadId: input.threadId ?? null,
      rootMessageId: input.rootMessageId ?? null,
      senderId: input.senderId,
    };
    const claim = stores.inbound.claim({ ...place, platformMessageId: input.platformMessageId, channelId: policy.channel.id, kind: 'message', request: input.kind, text: input.text });
    const inbound = claim.inbound;
    if (!claim.claimed) {
      return {
        status: claim.status,
        inboundId: inbound.id,
        projectId: inbound.projectId,
        taskId: inbound.taskId,
        workbenchTaskId: null,
        event: null,
        routedBy: inbound.routedBy,
        candidates: [],
        noOp: true,
      };
    }
    try {
      const resolution = await resolveProject(ctx, stores, policy.channel, { ...place, text: input.text, project: input.project, replyToMessageId: input.replyToMessageId });
      if (resolution.projectId === null) {
        stores.inbound.processed(inbound.id, { projectId: null, taskId: null, conversationId: null, eventId: null, routedBy: null, result: 'needs_project' });
        return { status: 'needs_project' as const, inboundId: inbound.id, projectId: null, taskId: null, workbenchTaskId: null, event: null, routedBy: null, candidates: resolution.candidates };
      }
      const projectId = resolution.projectId;
      const event = input.kind === 'work' ? ('GATEWAY_WORK_REQUEST' as const) : ('GATEWAY_DISCUSSION_REQUEST' as const);
      const workbenchTaskId = transaction(ctx.services.db, () => {
        const parent = stores.workbench.ensureWorkbench(projectId);
        const conversation = stores.conversations.bind(place, projectId);
        stores.conversations.touchRecent(place.platform, place.senderId, projectId);
        const dedupKey = `inbound:${inbound.id}`;
        const eventId =
          stores.workbench.addEvent({
            parentTaskId: parent,
            kind: event,
            priority: 'normal',
            dedupKey,
            inboundId: inbound.id,
            sourceTaskId: resolution.taskId,
            payload: { inboundId: inbound.id, platform: place.platform, chatId: place.chatId, threadId: place.threadId, senderId: place.senderId, text: input.text, taskId: resolution.taskId, routedBy: resolution.routedBy, sessionKey: conversation.sessionKey },
          }) ?? stores.workbench.events({ inboundId: inbound.id })[0]?.id ?? null;
        stores.inbound.processed(inbound.id, { projectId, taskId: resolution.taskId, conversationId: conversation.id, eventId, routedBy: resolution.routedBy, result: event });
        return parent;
      });
      stores.events.emit('workbench', workbenchTaskId);
      return { status: 'routed' as const, inboundId: inbound.id, projectId, taskId: resolution.taskId, workbenchTaskId, event, routedBy: resolution.routedBy, candidates: [] };
    } catch (error) {
      stores.inbound.failed(inbound.id, error);
      ctx.services.logger.warn('gateway request not routed', { inboundId: inbound.id, code: SvcError.isInstance(error) ? error.code : 'internal' });
      throw error;
    }
  },
});
