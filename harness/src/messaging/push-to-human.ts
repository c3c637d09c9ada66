import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { readSystemConfig } from '@svc-org/host/platform/config';
import { defineOperation, type OperationContext } from '@svc-org/host/operation-framework';
import { transaction } from '@svc-org/host/platform/db';
import type { ChannelRecord } from '../gateways/index.js';
import { harnessStores, type HarnessStores } from './harness-stores.js';
import { RAW_PUSH_TARGETS_KEY } from './messaging-config-keys.js';
import { callerTaskId } from './resolve-caller-task.js';
import { withTaskToken } from './with-task-token.js';

const PushToHumanInput = z
  .object({
    message: z.string().trim().min(1).max(16_000),
    /** A target name of the channel, or a platform chat id; the owner/home target when left out. */
    to: z.string().min(1).max(200).optional(),
    threadId: z.string().min(1).max(100).optional(),
    /** A channel name (list_notify_targets); the most specific active channel of the task otherwise. */
    channel: z.string().min(1).max(100).optional(),
    expectReply: z.boolean().default(false),
    taskId: z.number().int().positive().optional(),
  })
  .strict();
type PushToHumanInput = z.infer<typeof PushToHumanInput>;

export const pushToHuman = defineOperation({
  name: 'push_to_human',
  group: 'messaging',
  description:
    'Really send a message to a person through the configured gateway (durable: queued first, sent and retried by the service). `to` names a target of the channel (list_notify_targets: a target name or its chat); without it the channel\'s owner/home target is used. With expectReply the task is parked once the message is delivered: stop and wait for the reply.',
  readOnly: false,
  callerTaskField: 'taskId',
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: PushToHumanInput,
  output: z.object({
    messageId: z.number().int(),
    outboxId: z.string(),
    taskId: z.number().int(),
    status: z.literal('PENDING_DELIVERY'),
    channel: z.string(),
    to: z.string(),
    threadId: z.string().nullable(),
    expectReply: z.boolean(),
    instruction: z.string(),
  }),
  http: { method: 'POST', path: '/api/internal/harness/push', status: 202 },
  handler(input, ctx) {
    const stores = harnessStores(ctx.services);
    // A route read inside a transaction that encloses this one could still be rolled back with it.
    const keepRoute = !ctx.services.db.inTransaction;
    // One write transaction from the first read: the task, its channel and the target checked are
    // still so when the rows are written, and the reads take no lock of their own.
    const pushed = transaction(ctx.services.db, () => enqueue(input, ctx, stores, keepRoute));
    stores.events.emit('enqueued', pushed.outboxId);
    // Every field named (no spread): this answer is built on every push.
    return {
      messageId: pushed.messageId,
      outboxId: pushed.outboxId,
      taskId: pushed.taskId,
      channel: pushed.channel,
      to: pushed.to,
      threadId: pushed.threadId,
      status: 'PENDING_DELIVERY' as const,
      expectReply: input.expectReply,
      instruction: input.expectReply
        ? 'Queued. This task is parked once the message is delivered: stop now and wait; the reply arrives as your next message.'
        : 'Queued for delivery; keep working.',
    };
  },
});

/** The task, its channel and target, and the message, outbox row and ask intent written (inside a transaction). */
function enqueue(input: PushToHumanInput, ctx: OperationContext, stores: HarnessStores, keepRoute: boolean) {
  const { owner, channel } = stores.pushRoutes.routeOf(callerTaskId(ctx, input.taskId), input.channel);
  if (!channel) {
    throw new SvcError({
      code: 'no_active_channel',
      message: input.channel !== undefined ? `channel ${input.channel} is not active for task ${owner.taskId}` : `no active channel serves task ${owner.taskId}`,
      details: { taskId: owner.taskId, fix: 'configure one (svc gateway add …; svc channel add …), or use ask_human / notify_human' },
    });
  }
  const named = input.to !== undefined ? channel.target(input.to) : undefined;
  const to = named?.to ?? input.to ?? channel.home.to;
  if (!named && input.to !== undefined) assertNamedTarget(ctx, stores.channels.get(channel.id), input.to);
  const threadId = input.threadId ?? named?.threadId ?? (input.to === undefined ? channel.home.threadId : null) ?? null;
  const { messageId, outboxId, rows } = stores.messages.writePush({
    taskId: owner.taskId,
    projectId: owner.projectId,
    workspaceId: owner.workspaceId,
    executionId: owner.executionId,
    kind: 'PUSH',
    body: withTaskToken(input.message, owner.taskId),
    channelId: channel.id,
    gatewayId: channel.gatewayId,
    to,
    threadId,
    expectReply: input.expectReply,
  });
  if (keepRoute) stores.pushRoutes.wrote(rows);
  return { messageId, outboxId, taskId: owner.taskId, channel: channel.name, to, threadId };
}

/** A chat the channel does not name is refused, unless a person allowed raw targets (`svc config set harness.push.rawTargets allow`). */
function assertNamedTarget(ctx: OperationContext, channel: ChannelRecord, to: string): void {
  if (to === channel.home.to || channel.targets.some((target) => target.to === to)) return;
  if (readSystemConfig(ctx.services.db, RAW_PUSH_TARGETS_KEY) === 'allow') return;
  throw new SvcError({
    code: 'target_not_named',
    message: `channel ${channel.name} names no target "${to}"; push_to_human sends only to the home or a named target`,
    details: { channel: channel.name, targets: channel.targets.map((target) => target.name), fix: `name it on the channel (svc channel add … --target <name>=<chat>), or allow raw targets: svc config set ${RAW_PUSH_TARGETS_KEY} allow` },
  });
}
