// The identifiers of an inbound message, read only from OpenClaw's hook event and context (the
// platform's own data), never from anything a model wrote.

/** `-100777:topic:5` (or `telegram:-100777:topic:5`) → chat `-100777`, thread `5`. */
export function inboundIdentity(event, ctx) {
  const platform = ctx?.channelId ?? event?.channel;
  let conversation = String(ctx?.conversationId ?? '');
  if (platform && conversation.startsWith(`${platform}:`)) conversation = conversation.slice(platform.length + 1);
  const [chatId, marker, thread] = conversation.split(':');
  const threadId = marker === 'topic' || marker === 'thread' ? thread : event?.threadId !== undefined ? String(event.threadId) : undefined;
  const platformMessageId = event?.messageId ?? ctx?.messageId;
  const senderId = event?.senderId ?? ctx?.senderId;
  const replyToMessageId = event?.replyToId ?? ctx?.replyToId;
  if (!platform || !chatId || !platformMessageId || !senderId) return undefined;
  return {
    platform: String(platform),
    chatId: String(chatId),
    ...(threadId ? { threadId: String(threadId) } : {}),
    platformMessageId: String(platformMessageId),
    senderId: String(senderId),
    ...(replyToMessageId ? { replyToMessageId: String(replyToMessageId) } : {}),
  };
}
