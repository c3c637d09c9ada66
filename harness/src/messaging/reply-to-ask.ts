import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation, type OperationContext, type RecordResolver } from '@svc-org/host/operation-framework';
import { parseInput } from '@svc-org/host/platform/errors';
import { AnswerSenderFields, CHAT_TEXT_LIMIT } from '../operations/harness-schemas.js';
import { chatOwnerOf } from '../routing/sender-policy.js';
import { harnessStores } from './harness-stores.js';
import { answerCrashPoint, deliverAnswer } from './deliver-answer.js';

/** The task a harness message (a question) belongs to. */
const HARNESS_MESSAGE_RECORD: RecordResolver = (services, id) => {
  const taskId = harnessStores(services).messages.taskOfMessage(Number(id));
  return taskId === null ? undefined : { taskId };
};

export const REPLY_RESULTS = ['already_running', 'resumed'] as const;

export const replyToAsk = defineOperation({
  name: 'reply_to_ask',
  group: 'messaging',
  // A chat reply to an open ask or a relayed permission request: the gateway answers it for its sender, who must be the owner.
  mcp: { alsoIn: ['gateway'], senderOnlyIn: ['gateway'] },
  description:
    "Answer a task's OPEN question and wake the task: the reply is typed into its live terminal as the next message (or, when that terminal is gone, its CLI session is resumed with it). 409 no_pending when nothing is open.",
  readOnly: false,
  runsIn: 'service',
  reach: { names: { taskId: 'task', messageId: HARNESS_MESSAGE_RECORD } },
  input: z
    .object({
      /** As long as a chat message may be: an answer reaches its task whole. */
      reply: z.string().trim().min(1).max(CHAT_TEXT_LIMIT),
      /** The task whose OPEN ask is answered. */
      taskId: z.number().int().positive().optional(),
      /** Or the message (the question) being answered; it must be the task's OPEN ask. */
      messageId: z.number().int().positive().optional(),
      ...AnswerSenderFields,
    })
    .strict(),
  output: z.object({
    askId: z.number().int(),
    messageId: z.number().int(),
    taskId: z.number().int(),
    executionId: z.number().int(),
    result: z.enum(REPLY_RESULTS),
    note: z.string(),
  }),
  http: { method: 'POST', path: '/api/internal/harness/reply' },
  async handler(input, ctx) {
    const { messages, channels } = harnessStores(ctx.services);
    chatOwnerOf(channels, input, 'reply_to_ask');
    const taskId = input.taskId ?? (input.messageId !== undefined ? messages.taskOfMessage(input.messageId) : undefined) ?? ctx.caller.taskId;
    if (taskId === undefined || taskId === null) throw new SvcError({ code: 'invalid_request', message: 'say which task or message the reply is for (taskId or messageId)' });
    return answerOpenAsk(ctx, { taskId, reply: input.reply, via: input.via ?? ctx.caller.via, ...(input.messageId !== undefined ? { messageId: input.messageId } : {}) });
  },
});

/** A reply's text as reply_to_ask reads it: trimmed, not empty, as long as a chat message may be. */
const ReplyText = z.string().trim().min(1).max(CHAT_TEXT_LIMIT);

/**
 * Answers a task's OPEN ask and wakes the task (what reply_to_ask does once it knows the task): the
 * reply is typed into its live terminal, or its CLI session is resumed with it. With `messageId`, that
 * message must be the open ask.
 */
export async function answerOpenAsk(ctx: OperationContext, answer: { taskId: number; reply: string; via: string; messageId?: number }) {
  const { messages } = harnessStores(ctx.services);
  const { taskId } = answer;
  const reply = parseInput(ReplyText, answer.reply, 'reply');
  const open = messages.openAskOf(taskId);
  if (!open || (answer.messageId !== undefined && open.messageId !== answer.messageId)) {
    throw new SvcError({
      code: 'no_pending',
      message: answer.messageId !== undefined ? `message ${answer.messageId} is not an open question` : `task ${taskId} has no open question`,
      details: { taskId, ...(open ? { openMessageId: open.messageId } : {}) },
    });
  }
  const terminals = ctx.terminals;
  if (!terminals) throw new SvcError({ code: 'service_required', message: 'reply_to_ask runs inside `svc serve`' });
  // Only one reply wins the OPEN ask, whoever else answers at the same moment. The answer and the
  // duty to type it are one write: a service killed before typing types it when it starts again.
  if (!messages.answerForDelivery(open.id, reply, answer.via)) throw new SvcError({ code: 'no_pending', message: `task ${taskId} has no open question`, details: { taskId } });
  answerCrashPoint('reply-to-ask:answered');
  const { executionId, result } = await deliverAnswer(terminals, messages, { id: open.id, taskId, reply });
  return {
    askId: open.id,
    messageId: open.messageId,
    taskId,
    executionId,
    result,
    note:
      result === 'already_running'
        ? 'the reply was typed into the live terminal as its next message'
        : 'the parked terminal was gone: its CLI session was resumed with the reply as the next message',
  };
}
