// MCP sessions over /mcp are capped per token and in all, and idle ones are closed: a flood of
// `initialize` posts from one token holds at most its cap of sessions, the post past it is refused
// with a coded JSON-RPC error and HTTP 429, and a closed or idle session makes room again. A real
// service over HTTP on 127.0.0.1 with real tokens; the session count is the service's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startService, type RunningService } from '@svc-org/app/start-service';
import { McpTokenStore } from '../../src/mcp/tokens/mcp-token-store.js';
import { connectSvcMcpHttp, postMcp } from '../../../test/support/svc-mcp-http-client.js';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const started: { service: RunningService; home: string }[] = [];

async function serve(settings: Record<string, string>): Promise<RunningService> {
  const home = mkdtempSync(join(tmpdir(), 'svc-mcp-limits-'));
  const service = await startService({ env: { ...process.env, SVC_HOME: home, SVC_PORT: '0', SVC_LOG_LEVEL: 'error', ...settings }, builtins: false });
  started.push({ service, home });
  return service;
}

const tokenOf = (service: RunningService, name: string, profile: 'gateway-query' | 'full' = 'gateway-query') =>
  new McpTokenStore(service.services.db).create({ name, profile }).token;

async function initialize(service: RunningService, token: string): Promise<{ status: number; session: string | null; body: any }> {
  const answer = await postMcp(service.url, INITIALIZE, { authorization: `Bearer ${token}` });
  return { status: answer.status, session: answer.headers.get('mcp-session-id'), body: answer.body };
}

async function closeSession(service: RunningService, token: string, session: string): Promise<number> {
  const response = await fetch(new URL('/mcp', service.url), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
  });
  await response.text();
  return response.status;
}

afterAll(async () => {
  for (const { service, home } of started) {
    await service.close();
    rmSync(home, { recursive: true, force: true });
  }
});

describe('MCP sessions per token and in all', () => {
  test('a flood of initialize posts from one token holds its cap of sessions; the rest are refused with a code', async () => {
    const service = await serve({ SVC_MCP_MAX_SESSIONS_PER_TOKEN: '3', SVC_MCP_MAX_SESSIONS: '5' });
    const flood = tokenOf(service, 'flood');
    const opened: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await initialize(service, flood);
      expect(answer.status).toBe(200);
      opened.push(answer.session!);
    }
    const answers = await Promise.all(Array.from({ length: 200 }, () => initialize(service, flood)));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([429]));
    const refused = answers[0]!.body;
    expect(refused).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'mcp_session_limit', details: { limit: 3 } } } });
    expect(refused.error.message).toContain('token "flood" has 3 open MCP sessions');
    expect(answers.every((answer) => answer.session === null)).toBe(true);
    expect(service.mcpSessionCount()).toBe(3);
    // The SDK's own client hears the refusal with its status and code.
    const sdkRefusal = await connectSvcMcpHttp(service.url, flood).then(
      () => undefined,
      (error: Error & { code?: number }) => error,
    );
    expect(sdkRefusal).toMatchObject({ code: 429, message: expect.stringContaining('"code":"mcp_session_limit"') });
    expect(service.mcpSessionCount()).toBe(3);

    // A session the client closes makes room for the next one.
    expect(await closeSession(service, flood, opened[0]!)).toBe(200);
    expect(service.mcpSessionCount()).toBe(2);
    const again = await initialize(service, flood);
    expect(again.status).toBe(200);
    expect(service.mcpSessionCount()).toBe(3);

    // Other tokens have room of their own, up to the service's cap of 5 in all.
    const second = tokenOf(service, 'second', 'full');
    for (let i = 0; i < 2; i++) expect((await initialize(service, second)).status).toBe(200);
    const third = await initialize(service, tokenOf(service, 'third'));
    expect([third.status, third.body.error.data.code, third.body.error.message]).toEqual([429, 'mcp_session_limit', 'the service has 5 open MCP sessions, the most it may hold']);
    expect(service.mcpSessionCount()).toBe(5);
  });

  test('sessions idle past their time are closed and make room again', async () => {
    const service = await serve({ SVC_MCP_MAX_SESSIONS_PER_TOKEN: '2', SVC_MCP_SESSION_IDLE_MS: '300' });
    const token = tokenOf(service, 'idle');
    const first = [await initialize(service, token), await initialize(service, token)].map((answer) => answer.session!);
    // Once both have been idle for longer than their time (a lower bound only: a loaded machine makes
    // the wait longer, never shorter), a new initialize is accepted in their place.
    await new Promise((resolve) => setTimeout(resolve, 900));
    const next = await initialize(service, token);
    expect(next.status).toBe(200);
    expect(next.session).not.toBeNull();
    expect(service.mcpSessionCount()).toBeLessThanOrEqual(2);
    for (const session of first) {
      const stale = await postMcp(service.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
        authorization: `Bearer ${token}`,
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      });
      expect([stale.status, stale.body.error.data.code]).toEqual([404, 'mcp_session_not_found']);
    }
  });

  test('a session setting that is not a positive whole number stops the service from starting', async () => {
    await expect(serve({ SVC_MCP_MAX_SESSIONS_PER_TOKEN: 'lots' })).rejects.toMatchObject({ code: 'invalid_settings' });
  });
});
