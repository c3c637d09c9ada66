import { describe, expect, test } from 'vitest';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';

const CONFIG = '/home/test/.codex/config.toml';
const user = { scope: 'user' as const };

// A user config as people keep it: comments, a profile, a multi-line string whose lines look like
// tables, servers written by `codex mcp add` (layout from shared/cli-formats/mcp-add-results.txt).
const USER_CONFIG = `# my codex settings
model = "gpt-5.5"
model_reasoning_effort = "high"

[profiles.fast]
model = "gpt-6-luna"

[notes]
text = """
[mcp_servers.not-a-table]
command = "this is inside a string"
"""

[mcp_servers.my-stdio]
command = "npx"
args = ["-y", "my-mcp-server", "--flag"]

[mcp_servers.my-stdio.env]
API_KEY = "xxx"

[mcp_servers.my-http]
url = "https://example.invalid/mcp"
bearer_token_env_var = "MY_TOKEN" # read at start
`;

const DOCS = { name: 'docs', command: 'npx', args: ['-y', '@acme/docs-mcp'], env: { DOCS_TOKEN: 'abc' } };

function host(files: Record<string, string> = {}) {
  return createTestHost({ permissions: ['integration:mcp'], files });
}

describe('MCP servers in ~/.codex/config.toml', () => {
  test('install into an existing config appends one table and keeps every other byte', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    await new CodexAdapter().mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).toBe(
      `${USER_CONFIG}\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "@acme/docs-mcp"]\n\n[mcp_servers.docs.env]\nDOCS_TOKEN = "abc"\n`,
    );
  });

  test('inspect lists every server, not the look-alike inside a string', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await adapter.mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
    expect(await adapter.mcp.inspect(user, test.context({ integration: 'mcp' }))).toEqual({
      configPath: CONFIG,
      entries: [
        { name: 'my-stdio', command: 'npx', args: ['-y', 'my-mcp-server', '--flag'], env: { API_KEY: 'xxx' }, origin: 'other' },
        { name: 'my-http', url: 'https://example.invalid/mcp', origin: 'other' },
        { ...DOCS, origin: 'svc' },
      ],
    });
  });

  test('installing twice is idempotent', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await adapter.mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
    const once = test.files.get(CONFIG);
    await adapter.mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).toBe(once);
  });

  test('uninstall leaves the file byte for byte as it was before install', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await adapter.mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
    await adapter.mcp.uninstall('docs', user, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });

  test('a file without a final newline, or with CRLF line ends, comes back exactly', async () => {
    for (const original of ['model = "gpt-5.5"', 'model = "gpt-5.5"\r\n[features]\r\nhooks = true\r\n']) {
      const test = host({ [CONFIG]: original });
      const adapter = new CodexAdapter();
      await adapter.mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
      if (original.includes('\r\n')) expect(test.files.get(CONFIG)).toContain('\r\n[mcp_servers.docs]\r\ncommand = "npx"\r\n');
      await adapter.mcp.uninstall('docs', user, test.context({ integration: 'mcp' }));
      expect(test.files.get(CONFIG)).toBe(original);
    }
  });

  test('install creates a missing config, and uninstall removes the file it created', async () => {
    const test = host();
    const adapter = new CodexAdapter();
    await adapter.mcp.install({ name: 'web', url: 'https://mcp.example.invalid/mcp' }, user, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).toBe('[mcp_servers.web]\nurl = "https://mcp.example.invalid/mcp"\n');
    await adapter.mcp.uninstall('web', user, test.context({ integration: 'mcp' }));
    expect(test.files.has(CONFIG)).toBe(false);
  });

  test('writes the layout `codex mcp add` writes', async () => {
    const test = host();
    await new CodexAdapter().mcp.install(
      { name: 'my-stdio', command: 'npx', args: ['-y', 'my-mcp-server', '--flag'], env: { API_KEY: 'xxx' } },
      user,
      test.context({ integration: 'mcp' }),
    );
    // Verbatim from ~/.codex/config.toml after `codex mcp add my-stdio --env API_KEY=xxx -- npx -y my-mcp-server --flag`.
    expect(test.files.get(CONFIG)).toBe('[mcp_servers.my-stdio]\ncommand = "npx"\nargs = ["-y", "my-mcp-server", "--flag"]\n\n[mcp_servers.my-stdio.env]\nAPI_KEY = "xxx"\n');
  });

  test('re-installing a changed server replaces only the table svc wrote', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await adapter.mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
    await adapter.mcp.install({ ...DOCS, args: ['-y', '@acme/docs-mcp@2'] }, user, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).toBe(
      `${USER_CONFIG}\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "@acme/docs-mcp@2"]\n\n[mcp_servers.docs.env]\nDOCS_TOKEN = "abc"\n`,
    );
    await adapter.mcp.uninstall('docs', user, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });

  test('a server of the same name that svc did not write is left alone: integration_conflict', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    await expect(new CodexAdapter().mcp.install({ name: 'my-stdio', command: 'uvx', args: ['other'] }, user, test.context({ integration: 'mcp' }))).rejects.toMatchObject({
      code: 'integration_conflict',
    });
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });

  test('the same server already written by the user counts as installed: nothing is written', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    await new CodexAdapter().mcp.install(
      { name: 'my-stdio', command: 'npx', args: ['-y', 'my-mcp-server', '--flag'], env: { API_KEY: 'xxx' } },
      user,
      test.context({ integration: 'mcp' }),
    );
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });

  test('a config that is not valid TOML is refused and left unchanged', async () => {
    const broken = 'model = "gpt-5.5"\n[mcp_servers.a]\ncommand = "x"\n[mcp_servers.a]\ncommand = "y"\n';
    const test = host({ [CONFIG]: broken });
    await expect(new CodexAdapter().mcp.install(DOCS, user, test.context({ integration: 'mcp' }))).rejects.toMatchObject({ code: 'integration_config_invalid' });
    expect(test.files.get(CONFIG)).toBe(broken);
  });

  test('an inline mcp_servers table cannot take another server: conflict, unchanged', async () => {
    const inline = 'mcp_servers = { a = { command = "x" } }\n';
    const test = host({ [CONFIG]: inline });
    await expect(new CodexAdapter().mcp.install(DOCS, user, test.context({ integration: 'mcp' }))).rejects.toMatchObject({ code: 'integration_conflict' });
    expect(test.files.get(CONFIG)).toBe(inline);
  });

  test('uninstalling a server someone edited removes its tables and keeps the rest', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await adapter.mcp.install(DOCS, user, test.context({ integration: 'mcp' }));
    test.files.set(CONFIG, test.files.get(CONFIG)!.replace('"@acme/docs-mcp"]', '"@acme/docs-mcp", "--verbose"]'));
    await adapter.mcp.uninstall('docs', user, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).toBe(`${USER_CONFIG}\n`);
    await adapter.mcp.uninstall('my-http', { ...user, force: true }, test.context({ integration: 'mcp' }));
    expect(test.files.get(CONFIG)).not.toContain('my-http');
    expect(test.files.get(CONFIG)).toContain('[mcp_servers.my-stdio.env]\nAPI_KEY = "xxx"\n');
  });

  test('project scope edits <project>/.codex/config.toml', async () => {
    const test = host();
    await new CodexAdapter().mcp.install(DOCS, { scope: 'project', projectDir: '/work/app' }, test.context({ integration: 'mcp' }));
    expect([...test.files.keys()]).toEqual(['/work/app/.codex/config.toml']);
  });

  test('names and transports are checked before any file is read', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await expect(adapter.mcp.install({ name: 'bad name', command: 'x' }, user, test.context({ integration: 'mcp' }))).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(adapter.mcp.install({ name: 'both', command: 'x', url: 'https://a.invalid' }, user, test.context({ integration: 'mcp' }))).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });

  test('with CODEX_HOME set, the config under it is edited, as Codex reads it, and ~/.codex is not touched', async () => {
    const home = '/srv/codex-home';
    const test = host({ [CONFIG]: USER_CONFIG });
    const scope = { scope: 'user' as const, env: { CODEX_HOME: home } };
    const adapter = new CodexAdapter();
    expect(await adapter.mcp.install(DOCS, scope, test.context({ integration: 'mcp' }))).toEqual({ configPath: `${home}/config.toml`, changed: true });
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
    expect(test.files.get(`${home}/config.toml`)).toContain('[mcp_servers.docs]');
    expect((await adapter.mcp.inspect(scope, test.context({ integration: 'mcp' }))).configPath).toBe(`${home}/config.toml`);
    await expect(adapter.mcp.install(DOCS, { scope: 'user', env: { CODEX_HOME: 'relative/dir' } }, test.context({ integration: 'mcp' }))).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  test('removing a server that is not there says so and changes nothing', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    await expect(new CodexAdapter().mcp.uninstall('ghost', user, test.context({ integration: 'mcp' }))).rejects.toMatchObject({
      code: 'integration_not_found',
      message: `there is no MCP server "ghost" in ${CONFIG}; nothing was removed`,
    });
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });

  test('removing a server svc did not write needs force, and then says it was not svc\'s', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await expect(adapter.mcp.uninstall('my-http', user, test.context({ integration: 'mcp' }))).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
    expect(await adapter.mcp.uninstall('my-http', { ...user, force: true }, test.context({ integration: 'mcp' }))).toEqual({
      configPath: CONFIG,
      changed: true,
      origin: 'other',
    });
    expect(test.files.get(CONFIG)).not.toContain('my-http');
  });

  test('a project-scope removal leaves no empty .codex folder behind, and keeps one that holds other files', async () => {
    const adapter = new CodexAdapter();
    const project = { scope: 'project' as const, projectDir: '/work/app' };
    const empty = host();
    await adapter.mcp.install(DOCS, project, empty.context({ integration: 'mcp' }));
    expect(empty.directories.has('/work/app/.codex')).toBe(true);
    expect(await adapter.mcp.uninstall('docs', project, empty.context({ integration: 'mcp' }))).toMatchObject({ origin: 'svc' });
    expect([...empty.files.keys()]).toEqual([]);
    expect(empty.directories.has('/work/app/.codex')).toBe(false);
    expect(empty.directories.has('/work/app')).toBe(true);

    const busy = host({ '/work/app/.codex/notes.md': 'mine' });
    await adapter.mcp.install(DOCS, project, busy.context({ integration: 'mcp' }));
    await adapter.mcp.uninstall('docs', project, busy.context({ integration: 'mcp' }));
    expect([...busy.files.keys()]).toEqual(['/work/app/.codex/notes.md']);
    expect(busy.directories.has('/work/app/.codex')).toBe(true);
  });
});
