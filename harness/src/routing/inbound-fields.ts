// The identifiers of an inbound platform message. The gateway adapter takes them from the platform
// event (the plugin's hook context), never from text a model wrote.
import { z } from 'zod';
import { ChatIdField, PlatformField, PlatformMessageIdField, ThreadIdField } from '../operations/harness-schemas.js';

export const SenderIdField = z.string().min(1).max(256).describe('platform user id of the sender; the service decides OWNER / NON_OWNER from its channels');

export const InboundFields = {
  platform: PlatformField,
  chatId: ChatIdField,
  threadId: ThreadIdField.optional(),
  rootMessageId: PlatformMessageIdField.optional().describe('the root message of a reply chain, when the platform has no threads'),
  platformMessageId: PlatformMessageIdField,
  senderId: SenderIdField,
};

export const InboundStatus = z.enum(['routed', 'needs_project', 'in_progress', 'already_processed']);
