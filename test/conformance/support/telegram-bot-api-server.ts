// A scripted Telegram Bot API on 127.0.0.1 for the OpenClaw gateway (its Telegram channel's `apiRoot`
// points here): `getMe`, long-poll `getUpdates` (the messages a test injects with `receive`, as
// Telegram's own updates), `sendMessage` recorded; any other method answers `true`, as harmless setup
// calls (commands, webhook) expect. Message ids are numbered from 81, one counter for both directions.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  chatId: string;
  text: string;
  threadId?: string;
  /** The message this one answers (`reply_to_message_id` or `reply_parameters.message_id`). */
  replyToMessageId?: string;
  messageId: number;
}

export interface InboundMessage {
  chatId: number;
  /** The sender's user id; in a private chat the same as the chat id. */
  fromId: number;
  text: string;
  /** A forum topic. */
  threadId?: number;
  /** The message replied to, with its text (Telegram embeds the original). */
  replyTo?: { messageId: number; text: string; fromBot?: boolean };
}

export interface TelegramBotApiServer {
  apiRoot: string;
  sent: SentMessage[];
  /** Every method called, in order (for diagnosis). */
  calls: string[];
  /** A user posts `message`; the gateway gets it from its next `getUpdates`. Returns its message id. */
  receive(message: InboundMessage): number;
  close(): Promise<void>;
}

const BOT = { id: 123456, is_bot: true, first_name: 'svc test bot', username: 'svc_test_bot' };

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (type.includes('multipart/form-data')) {
    const out: Record<string, unknown> = {};
    for (const part of text.split(/--[^\r\n]+/)) {
      const match = /name="([^"]+)"\r?\n\r?\n([\s\S]*?)\r?\n?$/.exec(part.trim());
      if (match) out[match[1]!] = match[2];
    }
    return out;
  }
  return {};
}

/** `reply_parameters` arrives as an object (JSON body) or a JSON string (form bodies). */
function replyTargetOf(params: Record<string, unknown>): string | undefined {
  if (params.reply_to_message_id !== undefined) return String(params.reply_to_message_id);
  const raw = params.reply_parameters;
  const parsed = typeof raw === 'string' ? (JSON.parse(raw) as { message_id?: unknown }) : (raw as { message_id?: unknown } | undefined);
  return parsed?.message_id !== undefined ? String(parsed.message_id) : undefined;
}

function chatOf(chatId: number, threadId?: number) {
  return chatId < 0
    ? { id: chatId, type: 'supergroup', title: 'svc test group', ...(threadId !== undefined ? { is_forum: true } : {}) }
    : { id: chatId, type: 'private', first_name: 'Owner' };
}

export async function startTelegramBotApiServer(): Promise<TelegramBotApiServer> {
  let nextMessageId = 80;
  let nextUpdateId = 1000;
  const sent: SentMessage[] = [];
  const calls: string[] = [];
  const updates: { update_id: number }[] = [];
  const polls = new Set<() => void>();
  const server = createServer(async (req, res) => {
    const method = /\/bot[^/]+\/(\w+)/.exec(req.url ?? '')?.[1] ?? '';
    calls.push(method);
    const params = { ...Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams), ...(await bodyOf(req)) };
    const answer = (result: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, result }));
    };
    switch (method) {
      case 'getMe':
        return answer({ ...BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'getUpdates': {
        // Long poll: answer at once with what is new since `offset`, else hold the request (at most its
        // timeout, capped at 2 s) until a message arrives.
        const offset = Number(params.offset ?? 0);
        const fresh = () => updates.filter((update) => update.update_id >= offset);
        if (fresh().length > 0) return answer(fresh());
        const wait = Math.min(2, Number(params.timeout ?? 0)) * 1000;
        const done = () => {
          polls.delete(done);
          if (!res.writableEnded) answer(fresh());
        };
        polls.add(done);
        setTimeout(done, wait);
        return;
      }
      case 'sendMessage': {
        const messageId = ++nextMessageId;
        const chatId = String(params.chat_id);
        const replyTo = replyTargetOf(params);
        sent.push({
          chatId,
          text: String(params.text ?? ''),
          ...(params.message_thread_id ? { threadId: String(params.message_thread_id) } : {}),
          ...(replyTo ? { replyToMessageId: replyTo } : {}),
          messageId,
        });
        const threadId = params.message_thread_id !== undefined ? Number(params.message_thread_id) : undefined;
        // As Telegram answers: the sent message, in its topic when it went to one.
        return answer({
          message_id: messageId,
          date: Math.floor(Date.now() / 1000),
          from: BOT,
          chat: chatOf(Number(chatId), threadId),
          ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true } : {}),
          ...(replyTo ? { reply_to_message: { message_id: Number(replyTo), date: Math.floor(Date.now() / 1000), chat: chatOf(Number(chatId), threadId) } } : {}),
          text: params.text,
        });
      }
      default:
        return answer(true);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    calls,
    receive(message) {
      const messageId = ++nextMessageId;
      const date = Math.floor(Date.now() / 1000);
      const command = /^\/\w+/.exec(message.text)?.[0];
      updates.push({
        update_id: ++nextUpdateId,
        message: {
          message_id: messageId,
          date,
          chat: chatOf(message.chatId, message.threadId),
          from: { id: message.fromId, is_bot: false, first_name: 'Owner', language_code: 'en' },
          text: message.text,
          // What a Telegram client attaches to a leading /command.
          ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command.length }] } : {}),
          ...(message.threadId !== undefined ? { message_thread_id: message.threadId, is_topic_message: true } : {}),
          ...(message.replyTo
            ? {
                reply_to_message: {
                  message_id: message.replyTo.messageId,
                  date,
                  chat: chatOf(message.chatId, message.threadId),
                  from: message.replyTo.fromBot === false ? { id: message.fromId, is_bot: false, first_name: 'Owner' } : BOT,
                  text: message.replyTo.text,
                },
              }
            : {}),
        },
      } as { update_id: number });
      for (const poll of [...polls]) poll();
      return messageId;
    },
    close: () =>
      new Promise((resolve) => {
        for (const poll of [...polls]) poll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
