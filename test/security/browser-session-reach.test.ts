// What a browser session may not do over real HTTP, with a real session cookie from a login link:
// set a command the service runs later (a project's worktree set-up command), or reach the operation
// bridge (where an MCP token that outlives the session would be minted). The install token still can.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let repo: string;
let projectId: number;
let cookie: string;

/** A request as the signed-in page makes it: the session cookie and this origin, no token. */
async function asBrowser(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${serve.url}${path}`, {
    method,
    headers: { cookie, origin: serve.url, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = mkdtempSync(join(tmpdir(), 'svc-browser-reach-'));
  serve = await startServe(svc);
  const workspace = await serve.api('POST', '/api/workspaces', { name: 'main' });
  expect(workspace.status, JSON.stringify(workspace.body)).toBe(201);
  const project = await serve.api('POST', '/api/projects', { workspaceId: workspace.body.id, name: 'app', repoPath: repo });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  projectId = project.body.id;
  const opened = await svc.run(['open', '--json']);
  expect(opened.code, opened.stderr).toBe(0);
  const login = await fetch(JSON.parse(opened.stdout).url, { redirect: 'manual' });
  cookie = /^(svc_session=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
  expect(cookie).not.toBe('');
  expect((await asBrowser('GET', '/api/workspaces')).status).toBe(200);
}, 90_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
  rmSync(repo, { recursive: true, force: true });
});

describe('a browser session', () => {
  test("cannot set a project's worktree set-up command, on its route or through the bridge", async () => {
    const put = await asBrowser('PUT', `/api/projects/${projectId}/isolation`, { setupCommand: 'touch /tmp/pwned' });
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe('command_not_accepted');
    const bridged = await asBrowser('POST', '/api/internal/operations/set_project_isolation', { projectId, setupCommand: 'touch /tmp/pwned' });
    expect(bridged.status).toBeGreaterThanOrEqual(400);
    expect(['browser_not_allowed', 'command_not_accepted']).toContain(bridged.body.error.code);
    expect((await serve.api('GET', `/api/projects/${projectId}/isolation`)).body.setupCommand).toBeNull();
    // What the page may change there still changes.
    const mode = await asBrowser('PUT', `/api/projects/${projectId}/isolation`, { isolation: 'none' });
    expect(mode.status, JSON.stringify(mode.body)).toBe(200);
  });

  test('cannot mint an MCP token; it lists and revokes those made on this machine', async () => {
    const minted = await asBrowser('POST', '/api/internal/operations/create_mcp_token', { name: 'from-page', profile: 'full' });
    expect(minted.status).toBe(403);
    expect(minted.body.error.code).toBe('browser_not_allowed');
    expect(JSON.stringify(minted.body)).not.toMatch(/svcmcp_|"token"/);
    expect((await serve.api('GET', '/api/mcp/tokens')).body.items).toEqual([]);

    const made = await svc.run(['mcp', 'token', 'create', 'laptop', '--profile', 'gateway-query', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const listed = await asBrowser('GET', '/api/mcp/tokens');
    expect(listed.body.items.map((token: { name: string }) => token.name)).toEqual(['laptop']);
    const revoked = await asBrowser('POST', '/api/mcp/tokens/laptop/revoke');
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
  });
});

describe('the install token (the svc command, svc mcp)', () => {
  test('sets the set-up command and mints a token through the bridge', async () => {
    const put = await serve.api('PUT', `/api/projects/${projectId}/isolation`, { setupCommand: 'pnpm install --offline' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.setupCommand).toBe('pnpm install --offline');
    const minted = await serve.api('POST', '/api/internal/operations/create_mcp_token', { name: 'cli-made', profile: 'full' });
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    expect(minted.body.output.record.name).toBe('cli-made');
  });
});
