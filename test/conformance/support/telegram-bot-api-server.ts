// A scripted Telegram Bot API on 127.0.0.1 for the OpenClaw gateway (its Telegram channel's `apiRoot`
// points here): `getMe`, long-poll `getUpdates` (no updates), `sendMessage` numbered from 81 and
// recorded; any other method answers `true`, as harmless setup calls (commands, webhook) expect.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  chatId: string;
  text: string;
  threadId?: string;
  messageId: number;
}

export interface TelegramBotApiServer {
  apiRoot: string;
  sent: SentMessage[];
  /** Every method called, in order (for diagnosis). */
  calls: string[];
  close(): Promise<void>;
}

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

export async function startTelegramBotApiServer(): Promise<TelegramBotApiServer> {
  let nextMessageId = 80;
  const sent: SentMessage[] = [];
  const calls: string[] = [];
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
        return answer({ id: 123456, is_bot: true, first_name: 'svc test bot', username: 'svc_test_bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'getUpdates': {
        // Long poll: hold the request (at most its timeout, capped at 2 s) with nothing new.
        const wait = Math.min(2, Number(params.timeout ?? 0)) * 1000;
        const done = () => {
          polls.delete(done);
          if (!res.writableEnded) answer([]);
        };
        polls.add(done);
        setTimeout(done, wait);
        return;
      }
      case 'sendMessage': {
        const messageId = ++nextMessageId;
        const chatId = String(params.chat_id);
        sent.push({ chatId, text: String(params.text ?? ''), ...(params.message_thread_id ? { threadId: String(params.message_thread_id) } : {}), messageId });
        return answer({ message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: Number(chatId) < 0 ? 'supergroup' : 'private' }, text: params.text });
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
    close: () =>
      new Promise((resolve) => {
        for (const poll of [...polls]) poll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
