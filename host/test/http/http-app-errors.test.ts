// Errors the HTTP app meets outside its error middleware: an answer that fails after it started, and
// a guard a route applies that its localhost-bridge door must apply too.
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpApp, type ApiContext } from '../../src/adapters/http/index.js';
import { Logger, type LogRecord } from '../../src/platform/logging/index.js';
import { OperationInvoker, OperationRegistry } from '../../src/operation-framework/index.js';
import { startService, type RunningService } from '@svc-org/app/start-service';

describe('an answer that fails after it started', () => {
  test('is logged with its route instead of vanishing', async () => {
    const records: LogRecord[] = [];
    const logger = new Logger({ sink: (record) => records.push(record) });
    const invoker = new OperationInvoker({ registry: new OperationRegistry([]), services: async () => { throw new Error('unused'); }, caller: { via: 'http' } });
    const app = createHttpApp({ invoker, logger, token: 'tok-test-1234567890', hostVersion: '0.0.0' } as unknown as ApiContext);
    // A streamed answer whose source fails after the first bytes went out.
    app.use(async (ctx) => {
      if (ctx.path !== '/api/stream') return;
      let sent = false;
      ctx.body = new Readable({
        read() {
          if (sent) this.destroy(new Error('source failed midway'));
          else {
            sent = true;
            this.push('first bytes\n');
          }
        },
      });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/api/stream`, { headers: { authorization: 'Bearer tok-test-1234567890' } })
        .then((response) => response.text())
        .catch(() => undefined);
      const deadline = Date.now() + 5000;
      while (!records.some((r) => r.message === 'an HTTP answer failed after it started') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(records.find((r) => r.message === 'an HTTP answer failed after it started')).toMatchObject({ level: 'warn', method: 'GET', path: '/api/stream', message: 'an HTTP answer failed after it started' });
    } finally {
      server.close();
    }
  });
});

describe('the localhost bridge', () => {
  let home: string;
  let service: RunningService;
  let token: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'svc-bridge-'));
    service = await startService({ env: { ...process.env, SVC_HOME: home, SVC_PORT: '0' }, builtins: false });
    token = readFileSync(join(home, 'token'), 'utf8').trim();
  });
  afterAll(async () => {
    await service.close();
    rmSync(home, { recursive: true, force: true });
  });

  test('refuses a URL in a catalog request exactly as the route does', async () => {
    const post = async (path: string) => {
      const response = await fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'acme.tool', version: 'https://evil.example/acme.tool-1.0.0.tgz' }),
      });
      return { status: response.status, body: (await response.json()) as { error: { code: string } } };
    };
    const route = await post('/api/extensions/install');
    const bridge = await post('/api/internal/operations/install_extension');
    expect(route.body.error.code).toBe('artifact_url_not_accepted');
    expect(bridge).toEqual(route);
  });

  test('the harness deletes answer 204 without a body, like every other delete', async () => {
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, text: await response.text() };
    };
    expect((await send('POST', '/api/harness/gateways', { name: 'relay', kind: 'hermes', command: 'hermes' })).status).toBe(201);
    expect((await send('POST', '/api/harness/channels', { name: 'home', gateway: 'relay', platform: 'telegram', homeTo: '42' })).status).toBe(201);
    expect(await send('DELETE', '/api/harness/channels/home')).toEqual({ status: 204, text: '' });
    expect(await send('DELETE', '/api/harness/gateways/relay')).toEqual({ status: 204, text: '' });
    expect((await send('GET', '/api/harness/gateways/relay')).status).toBe(404);
  });
});
