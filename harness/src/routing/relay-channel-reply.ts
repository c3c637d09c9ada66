import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { answerOpenAsk } from '../messaging/index.js';
import { MessageTextField, TaskIdField } from '../operations/harness-schemas.js';
import { TaskContextOutput } from './resolve-gateway-task-context.js';
import { routingStores } from './routing-stores.js';
import { readTaskContext } from './task-context.js';

export const relayChannelReply = defineOperation({
  name: 'relay_channel_reply',
  group: 'messaging',
  description:
    'Compatibility entry for a channel reply to a task: when the task has an OPEN ask it is answered (as reply_to_ask); any other reply only returns ' +
    'the task\'s context, nothing is injected or resumed.',
  readOnly: false,
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: TaskIdField, reply: MessageTextField }).strict(),
  output: z.object({ kind: z.enum(['answered_ask', 'context_only']), taskId: z.number(), context: TaskContextOutput }),
  async handler(input, ctx) {
    const stores = routingStores(ctx.services);
    if (stores.messages.openAskOf(input.taskId)) {
      await answerOpenAsk(ctx, { taskId: input.taskId, reply: input.reply, via: 'gateway' });
      return { kind: 'answered_ask' as const, taskId: input.taskId, context: readTaskContext(ctx, stores, input.taskId) };
    }
    return { kind: 'context_only' as const, taskId: input.taskId, context: readTaskContext(ctx, stores, input.taskId) };
  },
});
