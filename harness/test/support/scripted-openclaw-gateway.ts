// A scripted OpenClaw Gateway on 127.0.0.1 for tests: the v4 handshake (connect.challenge, then a
// `connect` request checked field by field) and the `send` method with its idempotency cache, as
// OpenClaw's protocol docs describe them. `script` decides how each send is answered.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export type SendScript = 'ok' | 'queued' | 'invalid' | 'unavailable' | 'drop' | 'no-id' | 'hang';

export interface SendRequest {
  to: string;
  channel?: string;
  threadId?: string;
  message: string;
  idempotencyKey: string;
}

export interface ScriptedOpenClawGateway {
  url: string;
  /** Every `send` request received (retries and duplicates included). */
  requests: SendRequest[];
  /** Messages that reached the "platform": one per idempotency key answered `ok`. */
  deliveries: Map<string, { messageId: string; request: SendRequest }>;
  /** Connect params of every handshake, for assertions. */
  connects: Record<string, unknown>[];
  script: (request: SendRequest) => SendScript;
  close(): Promise<void>;
}

export async function startScriptedOpenClawGateway(token: string): Promise<ScriptedOpenClawGateway> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  let nextMessageId = 500;
  const gateway: ScriptedOpenClawGateway = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    deliveries: new Map(),
    connects: [],
    script: () => 'ok',
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket: WebSocket) => {
    let authed = false;
    const reply = (id: string, body: Record<string, unknown>) => socket.send(JSON.stringify({ type: 'res', id, ...body }));
    socket.send(JSON.stringify({ type: 'event', event: 'connect.challenge', payload: { nonce: randomUUID(), ts: Date.now() } }));
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; id: string; method: string; params: Record<string, any> };
      if (frame.type !== 'req') return;
      if (frame.method === 'connect') {
        const p = frame.params;
        gateway.connects.push(p);
        const problems: string[] = [];
        if (p.minProtocol > 4 || p.maxProtocol < 4) problems.push('protocol');
        if (p.role !== 'operator') problems.push('role');
        if (!Array.isArray(p.scopes) || !p.scopes.includes('operator.write')) problems.push('scopes');
        if (p.client?.mode !== 'backend' || typeof p.client?.id !== 'string') problems.push('client');
        if (problems.length > 0) {
          reply(frame.id, { ok: false, error: { code: 'INVALID_REQUEST', message: `invalid connect params: ${problems.join(', ')}` } });
          socket.close(1008, 'invalid connect');
          return;
        }
        if (p.auth?.token !== token) {
          reply(frame.id, { ok: false, error: { code: 'INVALID_REQUEST', message: 'unauthorized: gateway token mismatch', details: { code: 'AUTH_TOKEN_MISMATCH' } } });
          socket.close(1008, 'unauthorized');
          return;
        }
        authed = true;
        reply(frame.id, {
          ok: true,
          payload: {
            type: 'hello-ok',
            protocol: 4,
            server: { version: '2026.9.6-scripted', connId: randomUUID() },
            features: { methods: ['send'], events: [] },
            snapshot: {},
            auth: { role: 'operator', scopes: p.scopes },
            policy: { maxPayload: 26214400, maxBufferedBytes: 52428800, tickIntervalMs: 15000 },
          },
        });
        return;
      }
      if (!authed) {
        reply(frame.id, { ok: false, error: { code: 'INVALID_REQUEST', message: 'connect first' } });
        return;
      }
      if (frame.method !== 'send') {
        reply(frame.id, { ok: false, error: { code: 'INVALID_REQUEST', message: `unknown method ${frame.method}` } });
        return;
      }
      const request = frame.params as SendRequest;
      gateway.requests.push(request);
      if (typeof request.to !== 'string' || typeof request.idempotencyKey !== 'string' || typeof request.message !== 'string') {
        reply(frame.id, { ok: false, error: { code: 'INVALID_REQUEST', message: 'send needs to, message and idempotencyKey' } });
        return;
      }
      // OpenClaw answers a repeated idempotency key from its cache, without sending again.
      const cached = gateway.deliveries.get(request.idempotencyKey);
      if (cached) {
        reply(frame.id, { ok: true, payload: { runId: randomUUID(), messageId: cached.messageId, channel: request.channel, chatId: request.to } });
        return;
      }
      const script = gateway.script(request);
      if (script === 'hang') return;
      if (script === 'drop') {
        socket.terminate();
        return;
      }
      if (script === 'queued') {
        reply(frame.id, { ok: false, error: { code: 'UNAVAILABLE', message: 'Error: Telegram API 502', details: { code: 'OUTBOUND_DELIVERY_QUEUED' } } });
        return;
      }
      if (script === 'invalid') {
        reply(frame.id, { ok: false, error: { code: 'INVALID_REQUEST', message: 'unknown channel: nowhere' } });
        return;
      }
      if (script === 'unavailable') {
        reply(frame.id, { ok: false, error: { code: 'UNAVAILABLE', message: 'channel telegram is not running', retryable: true } });
        return;
      }
      if (script === 'no-id') {
        reply(frame.id, { ok: true, payload: { runId: randomUUID(), channel: request.channel } });
        return;
      }
      const messageId = String(++nextMessageId);
      gateway.deliveries.set(request.idempotencyKey, { messageId, request });
      reply(frame.id, { ok: true, payload: { runId: randomUUID(), messageId, channel: request.channel, chatId: request.to } });
    });
  });
  return gateway;
}
