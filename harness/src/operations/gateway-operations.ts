// Gateway tools (seed 001, "Inbound flow" and "Behaviours by tool"): declared with their schemas;
// the routing behind them is a later capability. Sender policy (OWNER / NON_OWNER) is decided by
// the service from its configuration, never from these arguments.
import { z } from 'zod';
import { defineOperation } from '../../../host/src/operations/index.js';
import { ChatIdField, InboundIdField, MessageTextField, NoOpField, PlatformField, PlatformMessageIdField, TaskIdField, ThreadIdField } from './harness-schemas.js';
import { notYetAvailable } from './not-yet-available.js';

const ROUTING = 'the gateway routing of the harness';
const Inbound = { platform: PlatformField, chatId: ChatIdField, threadId: ThreadIdField.optional(), platformMessageId: PlatformMessageIdField };

export const GATEWAY_OPERATIONS = [
  defineOperation({
    name: 'resolve_gateway_task_context',
    group: 'gateway',
    description: 'Resolve which project and task a platform reply is about, read-only: subject and producer task, Workbench, status, OPEN ask, recent executions. Stores nothing, touches no terminal.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({ ...Inbound, replyToMessageId: PlatformMessageIdField.optional() }).strict(),
    output: z.object({
      subjectTaskId: z.number().nullable(),
      producerTaskId: z.number().nullable(),
      workbenchTaskId: z.number().nullable(),
      taskStatus: z.string().nullable(),
      openAsk: z.object({ askId: z.number(), question: z.string() }).nullable(),
      recentExecutions: z.array(z.object({ id: z.number(), status: z.string(), endedAt: z.string().nullable() })),
    }),
    handler: notYetAvailable('resolve_gateway_task_context', ROUTING),
  }),
  defineOperation({
    name: 'continue_bound_task',
    group: 'gateway',
    description: 'OWNER only: continue the task a platform message is bound to (resume or inject the text). Idempotent by platform message id.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z.object({ ...Inbound, text: MessageTextField }).strict(),
    output: z.object({ inboundId: z.number(), taskId: z.number(), result: z.enum(['resumed', 'injected', 'already_running', 'in_progress', 'already_processed']), noOp: NoOpField }),
    handler: notYetAvailable('continue_bound_task', ROUTING),
  }),
  defineOperation({
    name: 'route_gateway_message',
    group: 'gateway',
    description: 'OWNER stateful entry for a platform message about the service: deduplicated, stored, then routed (task binding, thread, explicit project, identify_project, recent project, channel default).',
    readOnly: false,
    runsIn: 'any',
    input: z
      .object({
        ...Inbound,
        text: MessageTextField,
        kind: z.enum(['discussion', 'work']).default('discussion').describe('work = an explicit create/start request'),
        mode: z.string().optional().describe('legacy; DIRECT is refused with direct_not_supported'),
      })
      .strict(),
    output: z.object({ inboundId: z.number(), projectId: z.number().nullable(), event: z.enum(['GATEWAY_DISCUSSION_REQUEST', 'GATEWAY_WORK_REQUEST']).nullable(), noOp: NoOpField }),
    handler: notYetAvailable('route_gateway_message', ROUTING),
  }),
  defineOperation({
    name: 'route_gateway_query',
    group: 'gateway',
    description: 'One read-only call for a trusted-group NON_OWNER question: channel authorization, restricted project resolution, context read. Creates no inbound, session, event or task.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({ ...Inbound, text: MessageTextField }).strict(),
    output: z.object({ projectId: z.number().nullable(), context: z.string() }),
    handler: notYetAvailable('route_gateway_query', ROUTING),
  }),
  defineOperation({
    name: 'complete_gateway_discussion',
    group: 'gateway',
    description: 'Workbench: deliver the reply to a gateway discussion request (queued in the outbox, sent reliably).',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z.object({ inboundId: InboundIdField, text: MessageTextField }).strict(),
    output: z.object({ inboundId: z.number(), outboxId: z.number() }),
    handler: notYetAvailable('complete_gateway_discussion', ROUTING),
  }),
  defineOperation({
    name: 'confirm_gateway_task_created',
    group: 'gateway',
    description: 'Workbench: after create_task succeeded for a GATEWAY_WORK_REQUEST, bind the new task to that request. Call only after create_task.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z.object({ inboundId: InboundIdField, taskId: TaskIdField }).strict(),
    output: z.object({ inboundId: z.number(), taskId: z.number() }),
    handler: notYetAvailable('confirm_gateway_task_created', ROUTING),
  }),
  defineOperation({
    name: 'complete_gateway_work',
    group: 'gateway',
    description: 'Workbench: the reviewed work is done. Moves the task to DONE and queues its FINAL_RESULT in one transaction; do not call move_task to DONE first.',
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    input: z.object({ taskId: TaskIdField, result: MessageTextField }).strict(),
    output: z.object({ taskId: z.number(), status: z.literal('DONE'), outboxId: z.number() }),
    handler: notYetAvailable('complete_gateway_work', ROUTING),
  }),
];
