import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { TaskIdField } from '../operations/harness-schemas.js';
import { InboundFields } from './inbound-fields.js';
import { boundTask, visibleProjects } from './resolve-project.js';
import { routingStores } from './routing-stores.js';
import { requireTrustedChat } from './sender-policy.js';
import { readTaskContext } from './task-context.js';

export const TaskContextOutput = z.object({
  subjectTaskId: z.number(),
  producerTaskId: z.number().nullable(),
  projectId: z.number(),
  workbenchTaskId: z.number().nullable(),
  taskStatus: z.string(),
  title: z.string(),
  openAsk: z.object({ askId: z.number(), question: z.string() }).nullable(),
  recentExecutions: z.array(z.object({ id: z.number(), status: z.string(), endedAt: z.string().nullable() })),
  latestResult: z.string().nullable().describe('the last result svc sent for the task (its FINAL_RESULT), token removed'),
  repliedTo: z
    .object({
      messageId: z.number(),
      kind: z.string(),
      askStatus: z.string().nullable(),
      answeredAt: z.string().nullable(),
      approval: z.object({ approvalId: z.number(), status: z.string() }).nullable().describe("a CLI's permission request this message relayed: answer it with answer_approval (owner)"),
    })
    .nullable()
    .describe('the svc message this reply answers; askStatus ANSWERED means the question was answered before this reply came'),
  svcContext: z
    .object({
      task: z.object({ id: z.number(), title: z.string(), status: z.string() }),
      project: z.object({ id: z.number(), name: z.string() }),
      workbenchTaskId: z.number().nullable(),
      thread: z.object({ platform: z.string(), chatId: z.string(), threadId: z.string().nullable() }).nullable(),
      allowedTools: z.array(z.string()),
      mayChangeServiceState: z.literal(false),
    })
    .describe("hand this to the gateway's own agent when it carries out an external operation for the reply; svc's state stays unchanged"),
});

export const resolveGatewayTaskContext = defineOperation({
  name: 'resolve_gateway_task_context',
  group: 'gateway',
  description:
    'Which task a platform reply is about, read-only: by its [[svc:task=<id>]] token or the message it replies to. Returns subject and producer task, ' +
    'Workbench, status, OPEN ask, recent executions, latest result, the message replied to, and svcContext. Stores nothing and touches no terminal. ' +
    'Then: answer a query with read-only tools, an OPEN ask with reply_to_ask (owner), an external operation with svcContext, an explicit owner ' +
    'continue with continue_bound_task.',
  readOnly: true,
  runsIn: 'any',
  mcp: { delegatedRead: true },
  readScope: { inHandler: 'answers only for a sender of an authorized chat; the token or reply names the task' },
  reach: { taskCaller: 'refused' },
  input: z
    .object({
      ...InboundFields,
      text: z.string().max(32_000).optional(),
      replyToMessageId: z.string().min(1).max(256).optional(),
      taskId: TaskIdField.optional().describe('when the gateway already knows the task'),
    })
    .strict(),
  output: TaskContextOutput,
  http: { method: 'POST', path: '/api/internal/harness/gateway-task' },
  handler(input, ctx) {
    const stores = routingStores(ctx.services);
    const policy = requireTrustedChat(stores.channels, input, 'resolve_gateway_task_context');
    const taskId = input.taskId ?? boundTask(ctx, input);
    if (taskId === null || !visibleProjects(ctx, policy.channel).includes(ctx.services.domain.tasks.get(taskId).projectId)) {
      throw new SvcError({
        code: 'task_not_bound',
        message: 'this message is not bound to a task this chat may see',
        details: { fix: 'reply to a message that carries [[svc:task=<id>]], or route it with route_gateway_message' },
      });
    }
    return readTaskContext(ctx, stores, taskId, input);
  },
});
