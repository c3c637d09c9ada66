// MCP over Streamable HTTP at /mcp of a real `svc serve`, driven the way a remote client does: the
// MCP SDK's own HTTP client with a token made by `svc mcp token create`, beside `svc mcp` over stdio.
// The tests of the token commands make theirs with the CLI; the others mint theirs through the same
// token store in this process, and set up the project through the service's HTTP API, instead of a
// `svc` start for each.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { mintTaskCredential } from '@svc-org/host/features/terminals';
import { connectSvcMcp, type SvcMcp } from '../support/svc-mcp-client.js';
import { connectSvcMcpHttp, postMcp } from '../support/svc-mcp-http-client.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, startServe, type ServeProcess } from '../support/svc-serve.js';
import { prepareQwenDemoProjectOverHttp, QWEN_STAND_IN, svcOk } from '../support/qwen-demo-project.js';
import { McpTokenStore, type NewMcpToken } from '@svc-org/harness/mcp/tokens/mcp-token-store';
import { harnessPlugin } from '@svc-org/harness';

const PROFILES = ['full', 'assistant', 'task', 'gateway', 'gateway-query'] as const;
const INITIALIZE = (protocolVersion = '2025-11-25') =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

let svc: SvcSandbox;
let serve: ServeProcess;
let taskId: number;
let otherTaskId: number;
let projectId: number;
/** The service's database and stores, opened in this process. */
let local: HostServices;
const open: SvcMcp[] = [];

/** A token as `svc mcp token create` makes it (the same store), without starting `svc`. */
function token(input: NewMcpToken): string {
  return new McpTokenStore(local.db).create(input).token;
}
async function http(secret: string, protocolVersion?: string): Promise<SvcMcp> {
  const client = await connectSvcMcpHttp(serve.url, secret, protocolVersion ? { protocolVersion } : {});
  open.push(client);
  return client;
}
async function stdio(env: Record<string, string>): Promise<SvcMcp> {
  const client = await connectSvcMcp(svc, env);
  open.push(client);
  return client;
}

/** Every row of every table, but when a token was last used (noted once per session). */
function databaseSnapshot(): string {
  const db = new Database(join(svc.home, 'svc.db'), { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
    return JSON.stringify(
      tables.map((table) => [
        table,
        (db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[])
          .map((row) => {
            if (table === 'harness_mcp_tokens') delete row.last_used_at;
            return JSON.stringify(row);
          })
          .sort(),
      ]),
    );
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  // Each start waits (up to 1.5 s) for a cancel after its first progress step, so the cancel test's
  // cancel surely lands while the start is under way.
  serve = await startServe(svc, { SVC_TEST_HOLD_START_MS: '1500' });
  await prepareQwenDemoProjectOverHttp(serve, svc);
  taskId = (await apiOk(serve, 'POST', '/api/tasks', { title: 'first', projectId: 'demo' })).id;
  otherTaskId = (await apiOk(serve, 'POST', '/api/tasks', { title: 'second', projectId: 'demo' })).id;
  projectId = (await apiOk(serve, 'GET', '/api/projects/demo')).id;
  await apiOk(serve, 'PUT', '/api/projects/demo/task-defaults', { connection: 'qwen' });
  local = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, extensions: false, plugins: [harnessPlugin] });
}, 120_000);

afterAll(async () => {
  for (const client of open) await client.close().catch(() => undefined);
  await local?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

describe('tokens', () => {
  test('svc mcp token create prints the token once; list never shows it and the database keeps only its hash', async () => {
    const created = await svc.run(['mcp', 'token', 'create', 'laptop', '--profile', 'assistant', '--expires', '30d']);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^svcmcp_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain('shown this once');
    const listed = await svcOk(svc, ['mcp', 'token', 'list', '--json']);
    const entry = JSON.parse(listed).find((item: { name: string }) => item.name === 'laptop');
    expect(entry).toMatchObject({ profile: 'assistant', taskId: null, state: 'active' });
    expect(Date.parse(entry.expiresAt) - Date.parse(entry.createdAt)).toBe(30 * 86_400_000);
    expect(listed).not.toContain(secret);
    expect(await svcOk(svc, ['mcp', 'token', 'list'])).not.toContain(secret);
    expect(readFileSync(join(svc.home, 'svc.db')).includes(secret)).toBe(false);
    const again = await svc.run(['mcp', 'token', 'create', 'laptop', '--profile', 'full']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('mcp_token_exists');
    const badLifetime = await svc.run(['mcp', 'token', 'create', 'later', '--profile', 'full', '--expires', 'tomorrow']);
    expect(badLifetime.stderr).toContain('is not a lifetime');
    const noTask = await svc.run(['mcp', 'token', 'create', 'ghost', '--profile', 'task', '--task', '9999']);
    expect(noTask.stderr).toContain('task_not_found');
  });

  test('a token sees its profile only: a tool outside it is answered like an unknown tool', async () => {
    const client = await http(token({ name: 'assistant-only', profile: 'assistant' }));
    const outside = await client.fail('set_goal_mode', { taskId, unattended: true });
    const unknown = await client.fail('no_such_tool', {});
    expect(outside).toEqual({ code: 'unknown_tool', message: 'Tool set_goal_mode not found' });
    expect(unknown).toEqual({ code: 'unknown_tool', message: 'Tool no_such_tool not found' });
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('set_goal_mode');
    expect(tools.find((tool) => tool.name === 'start_task_execution')?.title).toBe('Start task execution');
  });

  test('a task token acts as its task and cannot act as another', async () => {
    const client = await http(token({ name: 'task-token', profile: 'task', taskId }));
    const before = databaseSnapshot();
    const refused = await client.fail('push_to_human', { taskId: otherTaskId, message: 'hello' });
    expect(refused).toMatchObject({ code: 'task_mismatch', details: { callerTaskId: taskId } });
    expect(databaseSnapshot()).toBe(before);
  });

  test('no token, a wrong token, an expired and a revoked one get 401 with the reason; a revoke ends an open session', async () => {
    const before = databaseSnapshot();
    const none = await postMcp(serve.url, INITIALIZE());
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect(none.body.error.data.code).toBe('unauthorized');
    const wrong = await postMcp(serve.url, INITIALIZE(), { authorization: 'Bearer svcmcp_not-a-token-of-this-service' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.data.code).toBe('unauthorized');
    // The install token of the local API is not an MCP token.
    expect((await postMcp(serve.url, INITIALIZE(), { authorization: `Bearer ${serve.token}` })).status).toBe(401);
    expect(databaseSnapshot()).toBe(before);

    const expiring = token({ name: 'expiring', profile: 'full', lifetimeMs: 60_000 });
    const db = new Database(join(svc.home, 'svc.db'));
    db.prepare("UPDATE harness_mcp_tokens SET expires_at = '2020-01-01T00:00:00.000Z' WHERE name = 'expiring'").run();
    db.close();
    const expired = await postMcp(serve.url, INITIALIZE(), { authorization: `Bearer ${expiring}` });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatchObject({ message: 'MCP token "expiring" expired at 2020-01-01T00:00:00.000Z', data: { code: 'mcp_token_expired' } });

    // Made and revoked with the CLI: a token of `svc mcp token create` opens a session, and its revoke ends it.
    const secret = (await svcOk(svc, ['mcp', 'token', 'create', 'to-revoke', '--profile', 'full'])).trim();
    const client = await http(secret);
    expect((await client.call('list_workspaces')).items.map((w: { name: string }) => w.name)).toEqual(['main']);
    expect(await svcOk(svc, ['mcp', 'token', 'revoke', 'to-revoke'])).toContain('revoked');
    const error = await client.client.callTool({ name: 'list_workspaces', arguments: {} }).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect((error as Error & { code?: number }).code).toBe(401);
    expect(error?.message).toContain('mcp_token_revoked');
    const listed = JSON.parse(await svcOk(svc, ['mcp', 'token', 'list', '--json']));
    expect(listed.find((item: { name: string }) => item.name === 'to-revoke').state).toBe('revoked');
    expect(listed.find((item: { name: string }) => item.name === 'expiring').state).toBe('expired');
  });
});

describe('hostile requests', () => {
  let secret: string;
  beforeAll(async () => {
    secret = token({ name: 'hostile', profile: 'full' });
  });

  test('a foreign Origin or Host, an oversized body and a malformed batch are refused with a code; nothing changes', async () => {
    const auth = { authorization: `Bearer ${secret}` };
    const before = databaseSnapshot();
    const origin = await postMcp(serve.url, INITIALIZE(), { ...auth, origin: 'http://evil.example' });
    expect([origin.status, origin.body.error.data.code]).toEqual([403, 'origin_not_allowed']);
    const port = new URL(serve.url).port;
    const samePortOtherHost = await postMcp(serve.url, INITIALIZE(), { ...auth, origin: `http://evil.example:${port}` });
    expect(samePortOtherHost.status).toBe(403);
    // fetch will not send a foreign Host: a raw request does, as a DNS-rebound page's would.
    const host = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const sent = request(new URL('/mcp', serve.url), { method: 'POST', headers: { ...auth, host: `evil.example:${port}`, 'content-type': 'application/json' } }, (answer) => {
        let text = '';
        answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: answer.statusCode!, body: JSON.parse(text) }));
      });
      sent.on('error', reject);
      sent.end(INITIALIZE());
    });
    expect([host.status, host.body.error.data.code]).toEqual([403, 'host_not_allowed']);
    const big = await postMcp(serve.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(2 * 1024 * 1024) } }), auth);
    expect([big.status, big.body.error.data.code]).toEqual([413, 'body_too_large']);
    const notJson = await postMcp(serve.url, '{"jsonrpc":', auth);
    expect([notJson.status, notJson.body.error.code, notJson.body.error.data.code]).toEqual([400, -32700, 'invalid_json']);
    const empty = await postMcp(serve.url, '[]', auth);
    expect([empty.status, empty.body.error.code, empty.body.error.data.code]).toEqual([400, -32600, 'invalid_jsonrpc']);
    const malformed = await postMcp(serve.url, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { hello: 'world' }]), auth);
    expect([malformed.status, malformed.body.error.data]).toEqual([400, { code: 'invalid_jsonrpc', details: { index: 1 } }]);
    const noSession = await postMcp(serve.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), auth);
    expect([noSession.status, noSession.body.error.data.code]).toEqual([400, 'invalid_jsonrpc']);
    expect(databaseSnapshot()).toBe(before);
  });

  test("another token's session is answered as if it did not exist", async () => {
    const first = await postMcp(serve.url, INITIALIZE(), { authorization: `Bearer ${secret}` });
    expect(first.status).toBe(200);
    const session = first.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const other = token({ name: 'other-client', profile: 'full' });
    const stolen = await postMcp(serve.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      authorization: `Bearer ${other}`,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    });
    expect([stolen.status, stolen.body.error.data.code]).toEqual([404, 'mcp_session_not_found']);
  });

  test('an older client still connects: every protocol version of the pinned SDK is accepted, newest first', async () => {
    const { SUPPORTED_PROTOCOL_VERSIONS } = await import('@modelcontextprotocol/sdk/types.js');
    expect(SUPPORTED_PROTOCOL_VERSIONS[0]).toBe('2025-11-25');
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const answer = await postMcp(serve.url, INITIALIZE(version), { authorization: `Bearer ${secret}` });
      const message = JSON.parse(/^data: (.*)$/m.exec(String(answer.body))![1]!);
      expect(message.result.protocolVersion).toBe(version);
    }
    const old = await http(secret, '2024-11-05');
    expect((await old.call('list_workspaces')).items).toHaveLength(1);
  });
});

describe('the same answers as stdio', () => {
  test('tools/list and every read-only tool of every profile answer the same over stdio and HTTP', async () => {
    const values: Record<string, unknown> = { taskId, projectId, workspace: 'main', project: 'demo', query: 'demo', question: 'what is demo?', text: 'demo' };
    let compared = 0;
    // A read-only tool creates nothing: a time after this test began is the answer's own clock.
    const began = new Date().toISOString();
    const clockless = (result: unknown) =>
      JSON.parse(JSON.stringify(result).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, (time) => (time >= began ? '<now>' : time)));
    // Over stdio a task terminal proves its task with its live execution's credential (as the terminal
    // manager mints it at start); over HTTP the task token does. A task of its own keeps that live
    // execution away from the task the later tests start.
    const parityTaskId = (await apiOk(serve, 'POST', '/api/tasks', { title: 'parity', projectId: 'demo' })).id;
    const minted = mintTaskCredential();
    const execution = local.domain.executions.create({ taskId: parityTaskId, connectionId: null, connectionName: 'stand-in', providerId: 'svc.stand-in', mode: 'fresh', sessionId: null });
    local.domain.executions.storeCredential(execution.id, minted.hash);
    for (const profile of PROFILES) {
      const ownTask = profile === 'task' ? parityTaskId : taskId;
      const taskEnv: Record<string, string> = profile === 'task' ? { SVC_TASK_ID: String(parityTaskId), SVC_TASK_CREDENTIAL: minted.credential } : {};
      const overStdio = await stdio({ SVC_MCP_PROFILE: profile, ...taskEnv });
      const overHttp = await http(token({ name: `parity-${profile}`, profile, ...(profile === 'task' ? { taskId: parityTaskId } : {}) }));
      const stdioTools = (await overStdio.client.listTools()).tools;
      expect((await overHttp.client.listTools()).tools).toEqual(stdioTools);
      for (const tool of stdioTools.filter((candidate) => candidate.annotations?.readOnlyHint)) {
        const args = sampleArguments(tool, { ...values, taskId: ownTask });
        const [a, b] = [await overStdio.client.callTool({ name: tool.name, arguments: args }), await overHttp.client.callTool({ name: tool.name, arguments: args })];
        expect({ tool: tool.name, profile, result: clockless(b) }).toEqual({ tool: tool.name, profile, result: clockless(a) });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  }, 120_000);
});

describe('long operations', () => {
  test('start_task_execution reports progress to a client that asked for it', async () => {
    const client = await http(token({ name: 'progress', profile: 'assistant' }));
    const seen: Array<{ progress: number; message?: string }> = [];
    const result = await client.client.callTool({ name: 'start_task_execution', arguments: { taskId } }, undefined, { onprogress: (progress) => void seen.push(progress) });
    expect(result.isError).toBeFalsy();
    expect(seen.map((step) => step.progress)).toEqual([1, 2]);
    expect(seen[0]!.message).toBe(`starting task ${taskId} through connection qwen`);
    expect(seen[1]!.message).toMatch(/^execution \d+ running/);
    await client.call('close_task_terminal', { taskId });
  }, 60_000);

  test('a cancelled start and a client that disconnects mid-call leave no terminal running', async () => {
    const secret = token({ name: 'cancel', profile: 'assistant' });
    const client = await http(secret);
    const controller = new AbortController();
    // Cancelled once the start is under way (its first progress step).
    const call = client.client.callTool({ name: 'start_task_execution', arguments: { taskId: otherTaskId } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort('changed my mind'),
    });
    await expect(call).rejects.toThrow('changed my mind');
    const stopped = await waitFor(async () => {
      const status = await client.call('get_task_terminal_status', { taskId: otherTaskId });
      return status.execution && status.execution.status !== 'RUNNING' && (status.terminal ?? { state: 'ENDED' }).state === 'ENDED' ? status.execution : undefined;
    }, 30_000, 'the cancelled start to be stopped');
    expect(stopped.endReason).toBe('stopped');

    // A raw client that goes away while its call runs.
    const init = await postMcp(serve.url, INITIALIZE(), { authorization: `Bearer ${secret}` });
    const headers = { authorization: `Bearer ${secret}`, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await postMcp(serve.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
    const gone = new AbortController();
    const request = fetch(new URL('/mcp', serve.url), {
      method: 'POST',
      signal: gone.signal,
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'start_task_execution', arguments: { taskId }, _meta: { progressToken: 'p' } } }),
    });
    // Gone once the start is under way: its first progress event arrived on the answer's stream.
    const reader = (await request).body!.getReader();
    let streamed = '';
    while (!streamed.includes('notifications/progress')) streamed += new TextDecoder().decode((await reader.read()).value);
    expect(streamed).not.toContain('"result"');
    gone.abort();
    await waitFor(async () => {
      const status = await client.call('get_task_terminal_status', { taskId });
      return status.execution && status.execution.status !== 'RUNNING' && (status.terminal ?? { state: 'ENDED' }).state === 'ENDED';
    }, 30_000, 'the abandoned start to be stopped');
  }, 90_000);
});

/** Arguments for a read-only tool from its input schema: known ids and names, else a plain value. */
function sampleArguments(tool: Tool, values: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
  for (const name of tool.inputSchema.required ?? []) {
    const type = properties[name]?.type;
    args[name] = values[name] ?? (type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? false : 'demo');
  }
  return args;
}
