// OpenClaw's Gateway WebSocket protocol v4, the part the outbox needs: the challenge/connect
// handshake as a trusted local backend with the operator write scope, then one `send` request.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { classifyOpenClawError, type OpenClawError } from './classify-openclaw-error.js';
import type { GatewayClient, GatewaySendRequest, SendOutcome } from './gateway-client.js';

export const OPENCLAW_PROTOCOL = 4;

export interface OpenClawClientOptions {
  url: string;
  token: string | null;
  clientVersion: string;
  /** Whole budget of one send: connect, handshake, request and answer. */
  timeoutMs?: number;
}

interface ResFrame {
  type: 'res';
  id: string;
  ok: boolean;
  payload?: Record<string, unknown>;
  error?: OpenClawError;
}

class Stage extends Error {
  constructor(readonly outcome: SendOutcome) {
    super(outcome.kind === 'sent' ? 'sent' : outcome.message);
  }
}

/**
 * One connection per send: the outbox sends rarely, and a fresh connection means a lost one can only
 * ever affect the request in flight, whose fate is then reported as unverified, never guessed.
 */
export class OpenClawClient implements GatewayClient {
  constructor(private readonly options: OpenClawClientOptions) {}

  async send(request: GatewaySendRequest, signal?: AbortSignal): Promise<SendOutcome> {
    const params: Record<string, unknown> = {
      to: request.to,
      channel: request.platform,
      message: request.text,
      idempotencyKey: request.idempotencyKey,
      ...(request.threadId ? { threadId: request.threadId } : {}),
      ...(request.replyToId ? { replyToId: request.replyToId } : {}),
    };
    return this.session(signal, async (call) => {
      const res = await call('send', params, true);
      if (res.ok) {
        const messageId = res.payload?.messageId;
        if (typeof messageId === 'string' && messageId !== '') {
          const chatId = res.payload?.chatId;
          return { kind: 'sent', platformMessageId: messageId, ...(typeof chatId === 'string' ? { chatId } : {}) };
        }
        if (typeof messageId === 'number') return { kind: 'sent', platformMessageId: String(messageId) };
        return { kind: 'unverified', code: 'no_message_id', message: 'the gateway accepted the send but returned no message id' };
      }
      return classifyOpenClawError(res.error ?? {});
    });
  }

  async health(signal?: AbortSignal): Promise<{ ok: boolean; detail: string }> {
    const outcome = await this.session(signal, async () => ({ kind: 'sent', platformMessageId: '' }) as SendOutcome);
    return outcome.kind === 'sent' ? { ok: true, detail: `connected (protocol ${OPENCLAW_PROTOCOL})` } : { ok: false, detail: `${outcome.code}: ${outcome.message}` };
  }

  private session(
    signal: AbortSignal | undefined,
    work: (call: (method: string, params: Record<string, unknown>, delivery: boolean) => Promise<ResFrame>) => Promise<SendOutcome>,
  ): Promise<SendOutcome> {
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    return new Promise<SendOutcome>((resolve) => {
      // Set once the send request is on the wire: from then on a lost answer is unverified.
      let written = false;
      let settled = false;
      const pending = new Map<string, (frame: ResFrame) => void>();
      let challenge: ((nonce: unknown) => void) | undefined;
      const ws = new WebSocket(this.options.url, { handshakeTimeout: timeoutMs, maxPayload: 32 * 1024 * 1024 });
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        ws.removeAllListeners('close');
        ws.on('error', () => undefined);
        ws.close();
        if (ws.readyState !== WebSocket.CLOSED) setTimeout(() => ws.terminate(), 1000).unref();
        resolve(outcome);
      };
      const lost = (code: string, message: string) =>
        finish(written ? { kind: 'unverified', code, message: `${message} after the send request was written` } : { kind: 'retry', code, message });
      const timer = setTimeout(() => lost('gateway_timeout', `no answer from the gateway within ${timeoutMs} ms`), timeoutMs);
      const onAbort = () => lost('cancelled', 'the send was cancelled');
      signal?.addEventListener('abort', onAbort);
      ws.on('error', (error) => lost('gateway_unreachable', `gateway connection failed: ${error.message}`));
      ws.on('close', (code, reason) => lost('gateway_connection_lost', `gateway closed the connection (${code}${reason.length ? ` ${reason.toString('utf8')}` : ''})`));
      ws.on('message', (data) => {
        let frame: { type?: string; event?: string; id?: string; payload?: unknown };
        try {
          frame = JSON.parse(data.toString()) as typeof frame;
        } catch {
          return;
        }
        if (frame.type === 'event' && frame.event === 'connect.challenge') challenge?.(frame.payload);
        else if (frame.type === 'res' && typeof frame.id === 'string') pending.get(frame.id)?.(frame as ResFrame);
      });
      const call = (method: string, params: Record<string, unknown>, delivery: boolean) =>
        new Promise<ResFrame>((answer, fail) => {
          const id = randomUUID();
          pending.set(id, answer);
          // Handed to the socket: if the socket dies from here on, the request may have left.
          if (delivery) written = true;
          ws.send(JSON.stringify({ type: 'req', id, method, params }), (error) => {
            if (error) fail(new Stage({ kind: written ? 'unverified' : 'retry', code: 'gateway_write_failed', message: error.message }));
          });
        });
      const challenged = new Promise<unknown>((resolveChallenge) => (challenge = resolveChallenge));
      ws.once('open', () => {
        void (async () => {
          await challenged;
          const hello = await call(
            'connect',
            {
              minProtocol: OPENCLAW_PROTOCOL,
              maxProtocol: OPENCLAW_PROTOCOL,
              client: { id: 'gateway-client', version: this.options.clientVersion, platform: process.platform, mode: 'backend' },
              role: 'operator',
              scopes: ['operator.read', 'operator.write'],
              caps: [],
              ...(this.options.token ? { auth: { token: this.options.token } } : {}),
              userAgent: `svc/${this.options.clientVersion}`,
            },
            false,
          );
          if (!hello.ok) {
            const code = String(hello.error?.details?.code ?? hello.error?.code ?? 'unknown');
            throw new Stage({ kind: 'retry', code: 'gateway_connect_refused', message: `the gateway refused the connection: ${code}` });
          }
          return work(call);
        })().then(finish, (error: unknown) =>
          finish(error instanceof Stage ? error.outcome : { kind: written ? 'unverified' : 'retry', code: 'gateway_client_error', message: String(error) }),
        );
      });
    });
  }
}
