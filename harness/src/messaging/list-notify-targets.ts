import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ChannelTargetSchema } from '../gateways/index.js';
import { harnessStores } from './harness-stores.js';
import { resolveCallerTask } from './resolve-caller-task.js';

export const listNotifyTargets = defineOperation({
  name: 'list_notify_targets',
  group: 'messaging',
  description:
    "The active channels for this task's scope and how to reach a person through each: which gateway, the owner/home target, named targets, and which call parks the task.",
  readOnly: true,
  idempotent: true,
  callerTaskField: 'taskId',
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: z.coerce.number().int().positive().optional() }).strict(),
  output: z.object({
    taskId: z.number().int(),
    channels: z.array(
      z.object({
        channel: z.string(),
        gateway: z.string(),
        gatewayKind: z.enum(['openclaw', 'hermes']),
        platform: z.string(),
        home: z.object({ to: z.string(), threadId: z.string().nullable() }),
        targets: z.array(ChannelTargetSchema),
        default: z.boolean(),
      }),
    ),
    howToSend: z.object({
      push_to_human: z.string(),
      ask_human: z.string(),
      notify_human: z.string(),
    }),
  }),
  http: { method: 'GET', path: '/api/internal/harness/targets' },
  handler(input, ctx) {
    const owner = resolveCallerTask(ctx, input.taskId);
    const stores = harnessStores(ctx.services);
    const channels = stores.channels.activeFor({ workspaceId: owner.workspaceId, projectId: owner.projectId });
    const none = channels.length === 0;
    return {
      taskId: owner.taskId,
      channels: channels.map((channel, i) => {
        const gateway = stores.gateways.get(channel.gatewayId);
        return {
          channel: channel.name,
          gateway: gateway.name,
          gatewayKind: gateway.kind,
          platform: channel.platform,
          home: channel.home,
          targets: channel.targets,
          default: i === 0,
        };
      }),
      howToSend: {
        push_to_human: none
          ? 'unavailable: no active channel (nothing can be sent); use ask_human or notify_human'
          : 'sends for real through the default channel (or `channel`), to `to` or the owner/home target; parks the task after delivery only with expectReply',
        ask_human: none
          ? 'registers the question in the notification center and parks the task; nothing is sent'
          : 'registers the question and parks the task; sends nothing by itself (use push_to_human with expectReply to send and wait)',
        notify_human: 'registers a progress entry; sends nothing; the task keeps running',
      },
    };
  },
});
