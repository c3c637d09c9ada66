// Fields the harness tools share: the task token, platform identities, the sender policy.
import { z } from 'zod';

export const TaskIdField = z.number().int().positive().describe('task id; defaults to the task this terminal runs (SVC_TASK_ID)');
export const PlatformField = z.string().min(1).max(64).describe('chat platform as the gateway names it, e.g. "telegram"');
export const ChatIdField = z.string().min(1).max(256).describe('platform chat id');
export const ThreadIdField = z.string().min(1).max(256).describe('platform thread id, when the chat has threads');
export const PlatformMessageIdField = z.string().min(1).max(256).describe('platform message id; the deduplication key with platform and chat');
/** The longest chat message svc accepts; whatever is accepted reaches its task whole. */
export const CHAT_TEXT_LIMIT = 32_000;
export const MessageTextField = z.string().min(1).max(CHAT_TEXT_LIMIT);
export const InboundIdField = z.number().int().positive().describe('GatewayInbound id');
export const BatchIdField = z.number().int().positive().describe('Workbench review batch id');
export const NoOpField = z.boolean().optional().describe('true when a duplicate was recognised and nothing was replayed');

/**
 * Who answers, for the record (`cli`, `http`, `web`, `terminal`, `gateway`, …; the adapter's own when
 * left out), and, for a chat reply through a gateway, the platform's ids of the sender, who must be the
 * channel's owner (`chatOwnerOf`).
 */
export const AnswerSenderFields = {
  via: z.string().min(1).max(40).optional(),
  platform: PlatformField.optional(),
  chatId: ChatIdField.optional(),
  senderId: z.string().min(1).max(256).optional(),
  platformMessageId: PlatformMessageIdField.optional(),
};
