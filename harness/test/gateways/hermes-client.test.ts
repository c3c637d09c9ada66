import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { HermesClient } from '../../src/gateways/index.js';

const HERMES = resolve(import.meta.dirname, '../../../test/fake-clis/hermes/hermes');
const dir = mkdtempSync(join(tmpdir(), 'svc-hermes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const send = (mode: string, extra: NodeJS.ProcessEnv = {}, timeoutMs = 10_000) =>
  new HermesClient({ command: HERMES, env: { ...process.env, HERMES_FAKE_MODE: mode, HERMES_FAKE_LOG: join(dir, 'log'), ...extra }, timeoutMs }).send({
    idempotencyKey: 'k',
    platform: 'telegram',
    to: '-100777',
    threadId: '5',
    text: 'Need a decision [[svc:task=3]]',
  });

describe('Hermes gateway client (`hermes send --json`)', () => {
  test('exit 0 with message_id is sent, addressed as <platform>:<chat>:<thread>', async () => {
    expect(await send('ok', { HERMES_FAKE_COUNTER: join(dir, 'counter') })).toEqual({ kind: 'sent', platformMessageId: '101', chatId: '-100777' });
    const line = JSON.parse(readFileSync(join(dir, 'log'), 'utf8').trim().split('\n').at(-1)!);
    expect(line).toMatchObject({ platform: 'telegram', chat: '-100777', thread: '5', message: 'Need a decision [[svc:task=3]]' });
  });

  test('exit 0 without message_id is unverified', async () => {
    expect(await send('no-id')).toMatchObject({ kind: 'unverified', code: 'no_message_id' });
  });

  test('exit 1 with an error is a delivery failure to retry', async () => {
    expect(await send('fail')).toMatchObject({ kind: 'retry', code: 'gateway_delivery_failed', message: expect.stringContaining('502 Bad Gateway') });
  });

  test('exit 2 is a usage error, not retried', async () => {
    expect(await send('usage')).toMatchObject({ kind: 'refused', code: 'gateway_usage_error' });
  });

  test('a send that does not finish is unverified (hermes has no idempotency key)', async () => {
    expect(await send('hang', {}, 700)).toMatchObject({ kind: 'unverified', code: 'gateway_timeout' });
  });

  test('a hermes that writes more than a string can hold before its answer does not take the service down', async () => {
    // 600 MB, past the longest string Node holds, then the answer.
    const flood = join(dir, 'flooding-hermes');
    writeFileSync(flood, `#!/bin/sh\nhead -c 600000000 /dev/zero\necho\necho '{"message_id": 7, "chat_id": "-100777"}'\n`);
    chmodSync(flood, 0o755);
    const outcome = await new HermesClient({ command: flood, timeoutMs: 60_000 }).send({ idempotencyKey: 'k', platform: 'telegram', to: '-100777', text: 'x' });
    expect(outcome).toEqual({ kind: 'sent', platformMessageId: '7', chatId: '-100777' });
  });

  test('a missing hermes executable is a retry: nothing left', async () => {
    const outcome = await new HermesClient({ command: join(dir, 'no-such-hermes') }).send({ idempotencyKey: 'k', platform: 'telegram', to: '1', text: 'x' });
    expect(outcome).toMatchObject({ kind: 'retry', code: 'gateway_unreachable' });
  });
});
