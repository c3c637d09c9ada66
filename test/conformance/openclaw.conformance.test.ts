// Conformance of the harness's openclaw gateway kind: the real, pinned OpenClaw gateway (on Node 24,
// which it needs) with its Telegram channel pointed at a scripted Bot API on 127.0.0.1. A task's
// push_to_human goes through the real `svc serve` outbox, OpenClaw's Gateway WebSocket protocol and
// OpenClaw's Telegram sender; the platform message id comes back and is recorded.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// The client file itself (not the module's index, which brings the database and its .sql migrations).
import { OpenClawClient } from '../../harness/src/gateways/openclaw-client.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { createConformanceSandbox, type ConformanceSandbox } from './support/conformance-sandbox.js';
import { startTelegramBotApiServer, type TelegramBotApiServer } from './support/telegram-bot-api-server.js';

const GATEWAY_TOKEN = 'svc-conformance-gateway-token-0123456789';
let sandbox: ConformanceSandbox;
let telegram: TelegramBotApiServer;
let gateway: ChildProcess & { output?: string };
let gatewayUrl: string;
let serve: ServeProcess | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${gateway?.output ? `\n--- openclaw output ---\n${gateway.output.slice(-4000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  sandbox = createConformanceSandbox('openclaw');
  telegram = await startTelegramBotApiServer();
  const port = await freePort();
  gatewayUrl = `ws://127.0.0.1:${port}`;
  // The offline recipe: token auth on loopback, the Telegram channel on the scripted Bot API.
  mkdirSync(join(sandbox.home, '.openclaw'));
  writeFileSync(
    join(sandbox.home, '.openclaw', 'openclaw.json'),
    `${JSON.stringify(
      {
        gateway: { mode: 'local', port, bind: 'loopback', auth: { mode: 'token', token: GATEWAY_TOKEN } },
        channels: { telegram: { enabled: true, botToken: '123456:TEST', apiRoot: telegram.apiRoot, dmPolicy: 'open', allowFrom: ['*'] } },
      },
      null,
      2,
    )}\n`,
  );
  gateway = spawn(sandbox.cli.launcher, ['gateway', 'run', '--bind', 'loopback', '--port', String(port)], {
    env: { ...sandbox.svc.env, HOME: sandbox.home, OPENCLAW_GATEWAY_TOKEN: GATEWAY_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  gateway.output = '';
  gateway.stdout!.on('data', (d) => (gateway.output += String(d)));
  gateway.stderr!.on('data', (d) => (gateway.output += String(d)));
  const client = new OpenClawClient({ url: gatewayUrl, token: GATEWAY_TOKEN, clientVersion: '0.0.0-conformance', timeoutMs: 5000 });
  await until(async () => (await client.health()).ok, 150_000, 'the OpenClaw gateway to accept the operator handshake');
}, 200_000);

afterAll(async () => {
  if (serve && serve.child.exitCode === null) serve.child.kill('SIGKILL');
  if (gateway?.pid) {
    try {
      process.kill(-gateway.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await telegram?.close();
  sandbox?.cleanup();
});

describe('the real OpenClaw gateway', () => {
  test('svc gateway health passes the real operator handshake with the token, and fails without leaking a wrong one', async () => {
    await sandbox.svc.run(['gateway', 'add', 'claw', '--kind', 'openclaw', '--url', gatewayUrl, '--token-env', 'OC_TOKEN'], { env: { OC_TOKEN: GATEWAY_TOKEN } });
    const good = await sandbox.svc.run(['gateway', 'health', 'claw'], { timeoutMs: 60_000 });
    expect(good.stdout).toContain('gateway claw: ok (connected (protocol 4))');
    const wrong = 'not-the-gateway-token-9876543210';
    await sandbox.svc.run(['gateway', 'add', 'claw-wrong', '--kind', 'openclaw', '--url', gatewayUrl, '--token-env', 'OC_TOKEN'], { env: { OC_TOKEN: wrong } });
    const bad = await sandbox.svc.run(['gateway', 'health', 'claw-wrong'], { timeoutMs: 60_000 });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('NOT OK');
    expect(bad.stdout + bad.stderr).not.toContain(wrong);
  });

  test('push_to_human is delivered through OpenClaw to the Bot API and its platform message id recorded', async () => {
    const repo = join(sandbox.home, 'repo');
    mkdirSync(repo);
    await sandbox.ok(['workspace', 'create', 'main']);
    await sandbox.ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', repo]);
    const taskId = Number(/task (\d+) created/.exec((await sandbox.ok(['task', 'create', 'Needs the owner', '--project', 'demo'])).stdout)![1]);
    await sandbox.ok(['channel', 'add', 'tg', '--gateway', 'claw', '--platform', 'telegram', '--to', '4242', '--owner', '4242']);
    serve = await startServe(sandbox.svc, { SVC_OUTBOX_POLL_MS: '500' });
    const pushed = await serve.api('POST', '/api/internal/harness/push', { taskId, message: 'Conformance: the build needs a decision', expectReply: true });
    expect(pushed.status).toBe(202);
    const shown = await until(async () => {
      const message = JSON.parse((await sandbox.ok(['harness', 'show', String(pushed.body.messageId), '--json'])).stdout);
      return message.deliveryStatus !== 'PENDING_DELIVERY' ? message : undefined;
    }, 120_000, 'the delivery');
    expect(telegram.sent).toHaveLength(1);
    const [sent] = telegram.sent;
    expect(sent).toMatchObject({ chatId: '4242' });
    expect(sent!.text).toContain(`[[svc:task=${taskId}]]`);
    expect(shown).toMatchObject({ deliveryStatus: 'SENT', status: 'OPEN', delivery: { platform: 'telegram', platformMessageId: String(sent!.messageId) } });
    process.stdout.write(`openclaw delivered message ${pushed.body.messageId} as Telegram message ${shown.delivery.platformMessageId}\n`);
    serve.child.kill('SIGTERM');
    await serve.exited;
  });
});
