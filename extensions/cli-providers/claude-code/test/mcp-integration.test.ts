import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';

const HOME = '/home/test';
const USER_FILE = `${HOME}/.claude.json`;
const user = { scope: 'user' as const };

// The shape Claude Code 2.1.197 writes (JSON.stringify with 2 spaces, no final newline), with a
// server the user added with `claude mcp add -s user` and per-project state.
const ORIGINAL = JSON.stringify(
  {
    firstStartTime: '2026-11-23T08:48:18.310Z',
    numStartups: 3,
    mcpServers: { 'user-server': { type: 'stdio', command: 'npx', args: ['-y', 'their-server'], env: { TOKEN: 'theirs' } } },
    projects: { '/work/project': { allowedTools: [], mcpServers: {} } },
  },
  null,
  2,
);

async function setup(files: Record<string, string> = { [USER_FILE]: ORIGINAL }) {
  const host = createTestHost({ permissions: ['integration:mcp'], files });
  const adapter = await svcCliPlugin.createAdapter();
  return { host, mcp: adapter.mcp!, ctx: host.context({ integration: 'mcp' }) };
}

const SVC_SERVER = { name: 'svc', command: '/usr/local/bin/svc', args: ['mcp'], env: { SVC_HOME: '/home/test/.svc' } };

describe('MCP integration', () => {
  test('install adds a stdio server in the shape `claude mcp add` writes, keeping everything else', async () => {
    const { host, mcp, ctx } = await setup();
    await mcp.install(SVC_SERVER, user, ctx);
    const written = JSON.parse(host.files.get(USER_FILE)!);
    expect(written.mcpServers).toEqual({
      'user-server': { type: 'stdio', command: 'npx', args: ['-y', 'their-server'], env: { TOKEN: 'theirs' } },
      svc: { type: 'stdio', command: '/usr/local/bin/svc', args: ['mcp'], env: { SVC_HOME: '/home/test/.svc' } },
    });
    expect(written.projects).toEqual({ '/work/project': { allowedTools: [], mcpServers: {} } });
    expect(host.files.get(USER_FILE)!.startsWith('{\n  "firstStartTime"')).toBe(true);
  });

  test('install is idempotent', async () => {
    const { host, mcp, ctx } = await setup();
    await mcp.install(SVC_SERVER, user, ctx);
    const once = host.files.get(USER_FILE);
    await mcp.install(SVC_SERVER, user, ctx);
    expect(host.files.get(USER_FILE)).toBe(once);
  });

  test('uninstall leaves the file byte for byte as it was before install', async () => {
    const { host, mcp, ctx } = await setup();
    await mcp.install(SVC_SERVER, user, ctx);
    await mcp.install({ name: 'svc-http', url: 'http://127.0.0.1:7777/mcp' }, user, ctx);
    await mcp.uninstall('svc-http', user, ctx);
    await mcp.uninstall('svc', user, ctx);
    expect(host.files.get(USER_FILE)).toBe(ORIGINAL);
    expect(await host.host.storage.keys()).toEqual([]);
  });

  test('when Claude Code rewrote the file after install, uninstall removes only our entry', async () => {
    const { host, mcp, ctx } = await setup();
    await mcp.install(SVC_SERVER, user, ctx);
    const rewritten = JSON.parse(host.files.get(USER_FILE)!);
    rewritten.numStartups = 4;
    host.files.set(USER_FILE, JSON.stringify(rewritten, null, 2));
    await mcp.uninstall('svc', user, ctx);
    expect(host.files.get(USER_FILE)).toBe(ORIGINAL.replace('"numStartups": 3', '"numStartups": 4'));
  });

  test('a file created by install is removed by uninstall', async () => {
    const { host, mcp, ctx } = await setup({});
    await mcp.install(SVC_SERVER, user, ctx);
    expect(host.files.get(USER_FILE)).toBe(
      '{\n  "mcpServers": {\n    "svc": {\n      "type": "stdio",\n      "command": "/usr/local/bin/svc",\n      "args": [\n        "mcp"\n      ],\n      "env": {\n        "SVC_HOME": "/home/test/.svc"\n      }\n    }\n  }\n}',
    );
    await mcp.uninstall('svc', user, ctx);
    expect(host.files.has(USER_FILE)).toBe(false);
  });

  test('the project scope edits <dir>/.mcp.json, and an http server is {type, url}', async () => {
    const { host, mcp, ctx } = await setup({});
    const project = { scope: 'project' as const, projectDir: '/work/project' };
    await mcp.install({ name: 'svc-http', url: 'http://127.0.0.1:7777/mcp' }, project, ctx);
    expect(JSON.parse(host.files.get('/work/project/.mcp.json')!)).toEqual({
      mcpServers: { 'svc-http': { type: 'http', url: 'http://127.0.0.1:7777/mcp' } },
    });
    expect(await mcp.inspect(project, ctx)).toEqual({
      configPath: '/work/project/.mcp.json',
      entries: [{ name: 'svc-http', url: 'http://127.0.0.1:7777/mcp', origin: 'svc' }],
    });
  });

  test('a project scope without an absolute projectDir is refused', async () => {
    const { mcp, ctx } = await setup();
    await expect(mcp.inspect({ scope: 'project', projectDir: 'relative' }, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  test('inspect lists every server in the file', async () => {
    const { mcp, ctx } = await setup();
    await mcp.install(SVC_SERVER, user, ctx);
    expect(await mcp.inspect(user, ctx)).toEqual({
      configPath: USER_FILE,
      entries: [
        { name: 'user-server', command: 'npx', args: ['-y', 'their-server'], env: { TOKEN: 'theirs' }, origin: 'other' },
        { ...SVC_SERVER, origin: 'svc' },
      ],
    });
  });

  test('a server of the same name that svc did not write is neither replaced nor removed', async () => {
    const { host, mcp, ctx } = await setup();
    await expect(mcp.install({ name: 'user-server', command: 'other' }, user, ctx)).rejects.toMatchObject({ code: 'integration_conflict' });
    await expect(mcp.uninstall('user-server', user, ctx)).rejects.toMatchObject({
      code: 'integration_not_owned',
      message: expect.stringContaining('was not written by svc'),
    });
    expect(host.files.get(USER_FILE)).toBe(ORIGINAL);
    await expect(mcp.uninstall('ghost', user, ctx)).rejects.toMatchObject({ code: 'integration_not_found' });
    expect(await mcp.uninstall('user-server', { ...user, force: true }, ctx)).toEqual({ configPath: USER_FILE, changed: true, origin: 'other' });
    expect(JSON.parse(host.files.get(USER_FILE)!).mcpServers).toEqual({});
    expect(JSON.parse(host.files.get(USER_FILE)!).projects).toEqual({ '/work/project': { allowedTools: [], mcpServers: {} } });
  });

  test('with CLAUDE_CONFIG_DIR set, its .claude.json is edited, as Claude Code reads it, and ~/.claude.json is not touched', async () => {
    const { host, mcp, ctx } = await setup();
    const scope = { scope: 'user' as const, env: { CLAUDE_CONFIG_DIR: '/srv/claude' } };
    expect(await mcp.install(SVC_SERVER, scope, ctx)).toEqual({ configPath: '/srv/claude/.claude.json', changed: true });
    expect(host.files.get(USER_FILE)).toBe(ORIGINAL);
    expect(JSON.parse(host.files.get('/srv/claude/.claude.json')!).mcpServers.svc.command).toBe('/usr/local/bin/svc');
  });

  test('a file that is not JSON is left unchanged and its content is not quoted in the error', async () => {
    const broken = '{ "mcpServers": { "x": { "env": { "TOKEN": "secret-token-value" } } ';
    const { host, mcp, ctx } = await setup({ [USER_FILE]: broken });
    const error = await mcp.install(SVC_SERVER, user, ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'integration_config_invalid' });
    expect(String((error as Error).message)).not.toContain('secret-token-value');
    expect(host.files.get(USER_FILE)).toBe(broken);
  });

  test('a server needs a command or a url, and a plain name', async () => {
    const { mcp, ctx } = await setup();
    await expect(mcp.install({ name: 'x' }, user, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(mcp.install({ name: '../x', command: 'node' }, user, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  test('a project .mcp.json with comments keeps them and every untouched byte, even after Claude Code changed it', async () => {
    const file = '/work/app/.mcp.json';
    const original = '{\n  // the team server\n  "mcpServers": {\n    // shared with the team\n    "team": {\n      "command": "team-mcp"\n    }\n  }\n}\n';
    const { host, mcp, ctx } = await setup({ [file]: original });
    const project = { scope: 'project' as const, projectDir: '/work/app' };
    await mcp.install(SVC_SERVER, project, ctx);
    const installed = host.files.get(file)!;
    expect(installed).toContain('// the team server');
    expect(installed).toContain('    // shared with the team\n    "team": {\n      "command": "team-mcp"\n    },\n    "svc": {');
    // Someone else edits the file: uninstall can no longer restore the old text, and removes only our entry.
    host.files.set(file, installed.replace('"team-mcp"', '"team-mcp-2"'));
    await mcp.uninstall('svc', project, ctx);
    expect(host.files.get(file)).toBe(original.replace('"team-mcp"', '"team-mcp-2"'));
  });
});
