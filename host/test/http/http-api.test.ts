import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loopbackGuard } from '../../src/adapters/http/index.js';
import { getTask } from '../../src/operations/task/index.js';
import { startService, type RunningService } from '@svc-org/app/start-service';
import { ServerFile, ServiceClient } from '../../src/client/index.js';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { FIXTURE_CLIS, waitFor } from '../../../test/support/svc-process.js';

const SECRET = 'planted-Secret-value-7f3a9c';
let home: string;
let repo: string;
let service: RunningService;
let token: string;
/** Every response body this file received, to search for the planted secret at the end. */
const seen: string[] = [];

interface Answer {
  status: number;
  body: any;
  text: string;
}

/** A real HTTP request to the service, with any Host header (fetch would not let us set one). */
function call(method: string, path: string, options: { body?: unknown; token?: string | null; host?: string } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${service.port}` };
  const auth = options.token === undefined ? token : options.token;
  if (auth !== null) headers.authorization = `Bearer ${auth}`;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: service.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => {
        seen.push(text);
        resolve({ status: res.statusCode ?? 0, text, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-http-'));
  repo = join(home, 'repo');
  mkdirSync(repo);
  service = await startService({
    env: { ...process.env, SVC_HOME: home, SVC_PORT: '0', PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}` },
    builtins: false,
    terminalSettings: { stopGraceMs: 1000, interruptMs: 100 },
  });
  token = readFileSync(join(home, 'token'), 'utf8').trim();
  await service.services.extensions.devAdd(copyFixtureProvider('echo'));
});
afterAll(async () => {
  await service.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the service files', () => {
  test('creates the install token with mode 0600 and publishes where it listens', () => {
    expect(statSync(join(home, 'token')).mode & 0o777).toBe(0o600);
    expect(token.length).toBeGreaterThanOrEqual(40);
    const info = new ServerFile(home).read();
    expect(info).toMatchObject({ pid: process.pid, url: service.url, port: service.port });
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('a second service on the same SVC_HOME is refused while the first runs', async () => {
    await expect(startService({ env: { ...process.env, SVC_HOME: home, SVC_PORT: '0' }, builtins: false })).rejects.toMatchObject({
      code: 'server_already_running',
    });
    expect(new ServerFile(home).read()?.url).toBe(service.url);
  });
});

describe('the localhost bridge refuses', () => {
  test('a request whose Host header is foreign (DNS rebinding), before any handler runs', async () => {
    const task = await makeTask('rebinding');
    const answer = await call('POST', `/api/internal/terminal/${task.id}/start`, { body: { connection: 'echo' }, host: 'evil.example:7878' });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: { code: 'host_not_allowed', message: expect.any(String) } });
    expect(service.services.domain.executions.list({ taskId: task.id })).toEqual([]);
  });

  test('a request without the token, before any handler runs', async () => {
    const task = await makeTask('no token');
    const answer = await call('POST', `/api/internal/terminal/${task.id}/start`, { body: { connection: 'echo' }, token: null });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('unauthorized');
    expect(service.services.domain.executions.list({ taskId: task.id })).toEqual([]);
  });

  test('a request with a wrong token, on every kind of route', async () => {
    for (const path of ['/api/internal/terminal/1/buffer', '/api/internal/hooks/stop', '/api/tasks', '/api/connections', '/api/nowhere']) {
      const answer = await call(path.includes('hooks') ? 'POST' : 'GET', path, { token: `${token.slice(0, -1)}x`, body: path.includes('hooks') ? {} : undefined });
      expect(answer.status, path).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
    }
  });

  test('a request from a peer that is not this machine (the guard with a fake peer address)', async () => {
    let handled = false;
    const ctx = { req: { socket: { remoteAddress: '192.168.1.20' } }, get: (name: string) => (name === 'host' ? `127.0.0.1:${service.port}` : '') };
    await expect(loopbackGuard()(ctx as never, async () => void (handled = true))).rejects.toMatchObject({ code: 'not_loopback' });
    expect(handled).toBe(false);
    const local = { ...ctx, req: { socket: { remoteAddress: '127.0.0.1' } } };
    await loopbackGuard()(local as never, async () => void (handled = true));
    expect(handled).toBe(true);
  });
});

/** Tests that run terminals need the echo provider enabled, whatever ran before them. */
async function ensureEchoEnabled(): Promise<void> {
  const extensions = service.services.extensions;
  if (extensions.registry.get('svc-test.echo').state !== 'enabled') await extensions.enable('svc-test.echo', async () => true);
}

let taskCounter = 0;
async function makeTask(title: string): Promise<{ id: number }> {
  let projects = (await call('GET', '/api/projects')).body.items;
  if (projects.length === 0) {
    const workspace = (await call('POST', '/api/workspaces', { body: { name: 'main' } })).body;
    await call('POST', '/api/projects', { body: { workspaceId: workspace.id, name: 'app', repoPath: repo } });
    projects = (await call('GET', '/api/projects')).body.items;
  }
  taskCounter += 1;
  return (await call('POST', '/api/tasks', { body: { projectId: projects[0].id, title: `${title} ${taskCounter}` } })).body;
}

describe('management API', () => {
  test('workspaces, projects, labels and tasks round-trip with coded errors', async () => {
    const ws = await call('POST', '/api/workspaces', { body: { name: 'side', description: 'weekend' } });
    expect(ws.status).toBe(201);
    expect((await call('POST', '/api/workspaces', { body: { name: 'side' } })).body.error.code).toBe('workspace_exists');
    const bad = await call('POST', '/api/workspaces', { body: { name: 'x', color: 'red' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', details: { problems: expect.any(Array) } });
    const project = await call('POST', '/api/projects', { body: { workspaceId: ws.body.id, name: 'lib', repoPath: repo } });
    expect(project.status).toBe(201);
    expect((await call('POST', `/api/projects/${project.body.id}/labels`, { body: { name: 'bug', color: '#cc0000' } })).status).toBe(201);
    const task = await call('POST', '/api/tasks', { body: { projectId: project.body.id, title: 'Fix it', labels: ['bug'] } });
    expect(task.body).toMatchObject({ status: 'TODO', labels: ['bug'] });
    expect((await call('PATCH', `/api/tasks/${task.body.id}`, { body: { status: 'IN_PROGRESS' } })).body.status).toBe('IN_PROGRESS');
    const cancelled = await call('PATCH', `/api/tasks/${task.body.id}`, { body: { status: 'CANCELLED' } });
    expect(cancelled.body.status).toBe('CANCELLED');
    const invalid = await call('PATCH', `/api/tasks/${task.body.id}`, { body: { status: 'DONE' } });
    expect(invalid.status).toBe(409);
    expect(invalid.body.error).toMatchObject({ code: 'invalid_status_transition', details: { from: 'CANCELLED', to: 'DONE' } });
    expect((await call('PUT', `/api/tasks/${task.body.id}/labels`, { body: { labels: [] } })).body.labels).toEqual([]);
    const signal = join(home, 'signals', `unattended-${task.body.id}`);
    expect((await call('PATCH', `/api/tasks/${task.body.id}`, { body: { unattended: true } })).body.unattended).toBe(true);
    expect(existsSync(signal)).toBe(true);
    await call('PATCH', `/api/tasks/${task.body.id}`, { body: { unattended: false } });
    expect(existsSync(signal)).toBe(false);
    expect((await call('GET', `/api/tasks?projectId=${project.body.id}`)).body.items).toHaveLength(1);
    expect((await call('GET', '/api/tasks?status=WAITING')).status).toBe(400);
    expect((await call('GET', '/api/tasks/9999')).body.error.code).toBe('task_not_found');
    expect((await call('GET', '/api/tasks/abc')).status).toBe(400);
    expect((await call('DELETE', `/api/projects/${project.body.id}`)).body.error.code).toBe('project_not_empty');
    expect((await call('DELETE', `/api/tasks/${task.body.id}`)).status).toBe(204);
    expect((await call('GET', '/api/nowhere')).body.error.code).toBe('route_not_found');
    const wrongMethod = await call('DELETE', '/api/health');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe('method_not_allowed');
    const notJson = await call('POST', '/api/workspaces', { body: undefined });
    expect(notJson.body.error.code).toBe('invalid_request');
  });

  test('extensions show ids and versions only, and enable needs the exact confirmed permission list', async () => {
    const list = await call('GET', '/api/extensions');
    expect(list.body.items).toEqual([expect.objectContaining({ id: 'svc-test.echo', state: 'disabled', permissions: [] })]);
    // A developer-mode provider runs on a worker thread, and the listing says what that leaves open.
    expect(list.body.items[0].isolation).toMatchObject({ mode: 'worker', notEnforced: expect.arrayContaining(['files', 'processes', 'network']) });
    expect(list.text).not.toContain(home);
    // What a person reviews before enabling, found without running anything: the probe is named, not run.
    const described = await call('GET', '/api/extensions/svc-test.echo/description');
    expect(described.body).toMatchObject({ id: 'svc-test.echo', state: 'disabled', requestedPermissions: ['config:provider', 'process:spawn'], grantedPermissions: [] });
    expect(described.body.cli.probe).toMatchObject({ args: ['--version'] });
    expect(described.body.checks.every((check: { ok: boolean }) => check.ok)).toBe(true);
    const prompt = await call('GET', '/api/extensions/svc-test.echo/permissions');
    expect(prompt.body.isolation).toMatchObject({ mode: 'worker' });
    expect(prompt.body.requested.map((p: { name: string }) => p.name)).toEqual(['config:provider', 'process:spawn']);
    const partial = await call('POST', '/api/extensions/svc-test.echo/enable', { body: { permissions: ['process:spawn'] } });
    expect(partial.status).toBe(409);
    expect(partial.body.error).toMatchObject({ code: 'permissions_mismatch', details: { requested: ['config:provider', 'process:spawn'] } });
    expect((await call('GET', '/api/extensions/svc-test.echo')).body.state).toBe('disabled');
    const enabled = await call('POST', '/api/extensions/svc-test.echo/enable', { body: { permissions: ['process:spawn', 'config:provider'] } });
    expect(enabled.body).toMatchObject({ state: 'enabled', permissions: ['config:provider', 'process:spawn'] });
    expect((await call('POST', '/api/extensions/svc-test.echo/disable', { body: {} })).body.state).toBe('disabled');
    await call('POST', '/api/extensions/svc-test.echo/enable', { body: { permissions: ['config:provider', 'process:spawn'] } });
  });
});

describe('terminals over the bridge', () => {
  test('start, read with a cursor, send input, stop and resume', async () => {
    await ensureEchoEnabled();
    if (!(await call('GET', '/api/connections/echo')).body.name) {
      expect((await call('POST', '/api/connections', { body: { name: 'echo', providerId: 'svc-test.echo' } })).status).toBe(201);
    }
    const task = await makeTask('bridge');
    const base = `/api/internal/terminal/${task.id}`;
    const started = await call('POST', `${base}/start`, { body: { connection: 'echo', cols: 100, rows: 30 } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ taskId: task.id, status: 'RUNNING', mode: 'fresh' });
    expect((await call('POST', `${base}/start`, { body: { connection: 'echo' } })).body.error.code).toBe('execution_running');

    const first = await waitForBuffer(base, 0, 'echo-cli interactive');
    expect(first).toMatchObject({ executionId: started.body.id, state: 'RUNNING', from: 0, behind: false });
    expect((await call('POST', `${base}/input`, { body: { data: 'size', submit: true } })).body.bytes).toBe(5);
    const second = await waitForBuffer(base, first.cursor, 'size 100x30');
    expect(second.from).toBe(first.cursor);
    expect(second.data).not.toContain('echo-cli interactive');

    const stopped = await call('POST', `${base}/stop`, { body: {} });
    expect(stopped.body).toMatchObject({ id: started.body.id, status: 'COMPLETED', endReason: 'stopped', outcome: 'stopped' });
    expect((await call('POST', `${base}/input`, { body: { data: 'x' } })).body.error.code).toBe('terminal_not_running');
    expect((await call('POST', `${base}/stop`, { body: {} })).body.error.code).toBe('terminal_not_running');

    // The stop hook tells us the CLI's session id; resume continues that session.
    const hook = await call('POST', '/api/internal/hooks/stop', { body: { taskId: task.id, sessionId: 'sess-7', event: { hook_event_name: 'Stop' } } });
    expect(hook.status).toBe(202);
    // Read by id: the service's event worker may already have handed it to the Workbench (fanned out).
    expect(service.services.domain.stopNotifications.get(hook.body.id)).toMatchObject({ taskId: task.id, executionId: started.body.id, sessionId: 'sess-7' });
    const resumed = await call('POST', `${base}/resume`, { body: {} });
    expect(resumed.body).toMatchObject({ mode: 'resume', sessionId: 'sess-7', connectionName: 'echo' });
    const status = await call('GET', base);
    expect(status.body).toMatchObject({ terminal: { state: 'RUNNING', executionId: resumed.body.id }, execution: { id: resumed.body.id } });
    expect((await call('GET', `${base}/buffer?cursor=999999999`)).body.error.code).toBe('cursor_out_of_range');
    await call('POST', `${base}/stop`, { body: {} });
    expect((await call('GET', `/api/executions?taskId=${task.id}`)).body.items.map((e: { id: number }) => e.id)).toEqual([resumed.body.id, started.body.id]);
  });

  test('refuses bad bodies with the field and rule', async () => {
    const task = await makeTask('bad body');
    const answer = await call('POST', `/api/internal/terminal/${task.id}/start`, { body: { connection: 'echo', cols: 'wide' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('cols');
    expect((await call('POST', `/api/internal/terminal/${task.id}/input`, { body: { data: 'x' } })).body.error.code).toBe('terminal_not_found');
  });
});

async function waitForBuffer(base: string, cursor: number, text: string) {
  let last: any;
  await waitFor(
    () => {
      void call('GET', `${base}/buffer?cursor=${cursor}`).then((answer) => (last = answer.body));
      return last?.data?.includes(text);
    },
    10_000,
    `"${text}" in the buffer`,
  );
  return last;
}

describe('environment values of a connection', () => {
  test('are masked in every answer and registered for redaction (before: shown unless the name looked secret, never registered)', async () => {
    await ensureEchoEnabled();
    const value = 'region-eu-west-7781';
    const created = await call('POST', '/api/connections', { body: { name: 'env-only', providerId: 'svc-test.echo', env: { ECHO_REGION: value } } });
    expect(created.body.env).toEqual({ ECHO_REGION: '********' });
    expect(JSON.stringify((await call('GET', '/api/connections')).body)).not.toContain(value);
    // An error that echoes the value back (here as a name) is caught by the last redaction pass.
    const echoed = await call('GET', `/api/connections/${value}`);
    expect(echoed.body.error.code).toBe('connection_not_found');
    expect(JSON.stringify(echoed.body)).not.toContain(value);
  });
});

describe('the operation bridge', () => {
  test('runs any declared operation by name, typed by its declaration, and names an unknown one', async () => {
    const task = await makeTask('bridged');
    const client = new ServiceClient(service.url, token);
    expect(await client.call(getTask, { id: task.id })).toMatchObject({ id: task.id, title: expect.stringContaining('bridged') });
    const raw = await call('POST', '/api/internal/operations/get_task', { body: { id: task.id } });
    expect(raw.body.output).toMatchObject({ id: task.id });
    const unknown = await call('POST', '/api/internal/operations/no_such_thing', { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('operation_not_found');
    const invalid = await call('POST', '/api/internal/operations/get_task', { body: { id: 'x' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_request');
  });
});

describe('a sensitive connection value', () => {
  test('never appears in an API response or a log line', async () => {
    await ensureEchoEnabled();
    const created = await call('POST', '/api/connections', {
      body: { name: 'keyed', providerId: 'svc-test.echo', settings: { apiKey: SECRET, greeting: 'hi' }, env: { ECHO_API_TOKEN: SECRET, PLAIN: 'visible' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ config: { apiKey: '********', greeting: 'hi' }, env: { ECHO_API_TOKEN: '********', PLAIN: '********' }, secretKeys: ['apiKey'] });
    expect(service.services.connections.secretsOf(created.body.id)).toEqual({ apiKey: SECRET });

    await call('GET', '/api/connections');
    await call('GET', '/api/connections/keyed');
    const wrongType = await call('PATCH', '/api/connections/keyed', { body: { settings: { apiKey: 12345 } } });
    expect(wrongType.body.error.code).toBe('config_invalid');
    await call('PATCH', '/api/connections/keyed', { body: { settings: { greeting: 'hello' } } });
    // A secret echoed back by an error (here a name) is caught by the last redaction pass.
    const echoed = await call('GET', `/api/connections/${SECRET}`);
    expect(echoed.body.error.code).toBe('connection_not_found');

    const task = await makeTask('secret');
    const started = await call('POST', `/api/internal/terminal/${task.id}/start`, { body: { connection: 'keyed' } });
    expect(started.status).toBe(201);
    await waitForBuffer(`/api/internal/terminal/${task.id}`, 0, 'echo-cli interactive');
    await call('POST', `/api/internal/terminal/${task.id}/stop`, { body: {} });
    await call('GET', `/api/executions?taskId=${task.id}`);
    await call('GET', '/api/internal/terminal');

    expect(seen.length).toBeGreaterThan(15);
    for (const text of seen) expect(text).not.toContain(SECRET);
    const log = readFileSync(join(home, 'logs', 'svc.log'), 'utf8');
    expect(log).toContain('terminal started');
    expect(log).not.toContain(SECRET);
  });
});
