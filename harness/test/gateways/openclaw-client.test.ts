import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OpenClawClient } from '../../src/gateways/index.js';
import { startScriptedOpenClawGateway, type ScriptedOpenClawGateway } from '../support/scripted-openclaw-gateway.js';

const TOKEN = 'oc-gateway-token-1234567890';
let gateway: ScriptedOpenClawGateway;

beforeAll(async () => {
  gateway = await startScriptedOpenClawGateway(TOKEN);
});
afterAll(async () => {
  await gateway.close();
});

const request = (key: string, text = 'hello') => ({ idempotencyKey: key, platform: 'telegram', to: '-100777', threadId: '5', text });
const client = (options: { token?: string; timeoutMs?: number; url?: string } = {}) =>
  new OpenClawClient({ url: options.url ?? gateway.url, token: options.token ?? TOKEN, clientVersion: '0.3.0', timeoutMs: options.timeoutMs ?? 5000 });

describe('OpenClaw gateway client (protocol v4)', () => {
  test('connects as an operator backend with the write scope and the token, then sends with the idempotency key', async () => {
    gateway.script = () => 'ok';
    const outcome = await client().send(request('key-ok'));
    expect(outcome).toMatchObject({ kind: 'sent', platformMessageId: expect.stringMatching(/^\d+$/), chatId: '-100777' });
    const connect = gateway.connects.at(-1)!;
    expect(connect).toMatchObject({ minProtocol: 4, maxProtocol: 4, role: 'operator', client: { mode: 'backend' }, auth: { token: TOKEN } });
    expect(connect.scopes).toContain('operator.write');
    expect(gateway.requests.at(-1)).toEqual({ to: '-100777', channel: 'telegram', threadId: '5', message: 'hello', idempotencyKey: 'key-ok' });
  });

  test('an answer to a platform message is sent as a reply to it (replyToId)', async () => {
    gateway.script = () => 'ok';
    expect(await client().send({ ...request('key-reply'), replyToId: '82' })).toMatchObject({ kind: 'sent' });
    expect(gateway.requests.at(-1)).toEqual({ to: '-100777', channel: 'telegram', threadId: '5', replyToId: '82', message: 'hello', idempotencyKey: 'key-reply' });
  });

  test('a repeated idempotency key gets the first message id back and sends nothing new', async () => {
    gateway.script = () => 'ok';
    const first = await client().send(request('key-twice'));
    const before = gateway.deliveries.size;
    const second = await client().send(request('key-twice'));
    expect(second).toEqual(first);
    expect(gateway.deliveries.size).toBe(before);
  });

  test('OUTBOUND_DELIVERY_QUEUED is unverified: the gateway holds the message and must not be asked again', async () => {
    gateway.script = () => 'queued';
    expect(await client().send(request('key-queued'))).toMatchObject({ kind: 'unverified', code: 'outbound_delivery_queued' });
  });

  test('INVALID_REQUEST is a refusal: not sent, not worth retrying', async () => {
    gateway.script = () => 'invalid';
    expect(await client().send(request('key-invalid'))).toMatchObject({ kind: 'refused', code: 'gateway_invalid_request' });
  });

  test('a plain UNAVAILABLE is an explicit failure: retry later', async () => {
    gateway.script = () => 'unavailable';
    expect(await client().send(request('key-unavailable'))).toMatchObject({ kind: 'retry', code: 'gateway_unavailable' });
  });

  test('a connection lost after the send request was written is unverified', async () => {
    gateway.script = () => 'drop';
    expect(await client().send(request('key-drop'))).toMatchObject({ kind: 'unverified', code: 'gateway_connection_lost' });
  });

  test('no answer after the request was written is unverified', async () => {
    gateway.script = () => 'hang';
    expect(await client({ timeoutMs: 800 }).send(request('key-hang'))).toMatchObject({ kind: 'unverified', code: 'gateway_timeout' });
  });

  test('success without a message id is unverified', async () => {
    gateway.script = () => 'no-id';
    expect(await client().send(request('key-no-id'))).toMatchObject({ kind: 'unverified', code: 'no_message_id' });
  });

  test('a wrong token is refused at connect, before anything is sent: retry after the token is fixed', async () => {
    gateway.script = () => 'ok';
    const requests = gateway.requests.length;
    const outcome = await client({ token: 'wrong-token-000000' }).send(request('key-bad-token'));
    expect(outcome).toMatchObject({ kind: 'retry', code: 'gateway_connect_refused' });
    expect(outcome.kind !== 'sent' && outcome.message).toContain('AUTH_TOKEN_MISMATCH');
    expect(outcome.kind !== 'sent' && outcome.message).not.toContain('wrong-token-000000');
    expect(gateway.requests.length).toBe(requests);
  });

  test('a gateway that is not listening is a retry (nothing left)', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    expect(await client({ url: `ws://127.0.0.1:${port}` }).send(request('key-down'))).toMatchObject({ kind: 'retry', code: 'gateway_unreachable' });
  });

  test('health connects and sends nothing', async () => {
    const requests = gateway.requests.length;
    expect(await client().health()).toEqual({ ok: true, detail: 'connected (protocol 4)' });
    expect((await client({ token: 'wrong-token-000000' }).health()).ok).toBe(false);
    expect(gateway.requests.length).toBe(requests);
  });
});
