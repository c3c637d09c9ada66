import type { AdapterContext, CliAdapter } from '@svc-org/ai-sdk';
import type { TestHost } from '@svc-org/ai-sdk/testing';
import { beforeEach, describe, expect, test } from 'vitest';
import { parseJsonc } from '../src/jsonc/parse-jsonc.js';
import { svcCliPlugin } from '../src/index.js';
import { recordingHost } from './recording-host.js';

const HOME = '/home/ada';
const USER_SETTINGS = '/home/ada/.gemini/settings.json';
const USER = { scope: 'user' as const };

// A hand-edited settings file: four-space indent, comments, keys in its own order, one MCP server.
const EDITED = `{
    // my theme
    "ui": { "theme": "GitHub" },
    "mcpServers": {
        "mine": {
            "command": "node",
            "args": ["./my-server.js"] /* keep */
        }
    },
    "security": {
        "auth": { "selectedType": "gemini-api-key" }
    }
}
`;

const WITHOUT_MCP = `{
  "security": {
    "auth": {
      "selectedType": "gemini-api-key"
    }
  }
}
`;

const DOCS = { name: 'docs', command: 'npx', args: ['-y', 'docs-mcp'], env: { DOCS_TOKEN: 'abc' } };

let host: TestHost;
let ctx: AdapterContext;
let adapter: CliAdapter;

function setup(files: Record<string, string> = {}) {
  host = recordingHost('version', { files, platform: { homeDir: HOME } });
  ctx = host.context({ integration: 'mcp' });
}

beforeEach(async () => {
  adapter = await svcCliPlugin.createAdapter();
  setup();
});

describe('MCP integration (mcpServers in settings.json)', () => {
  test('install into a missing user settings file writes what `gemini mcp add -s user` writes; uninstall removes the file again', async () => {
    await adapter.mcp!.install(DOCS, USER, ctx);
    expect(JSON.parse(host.files.get(USER_SETTINGS)!)).toEqual({
      mcpServers: { docs: { command: 'npx', args: ['-y', 'docs-mcp'], env: { DOCS_TOKEN: 'abc' } } },
    });
    await adapter.mcp!.uninstall('docs', USER, ctx);
    expect(host.files.has(USER_SETTINGS)).toBe(false);
    expect(host.storage.size).toBe(0);
  });

  test('install keeps every byte of a hand-edited file and adds the entry in its style; uninstall restores it byte for byte', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    await adapter.mcp!.install(DOCS, USER, ctx);
    const installed = host.files.get(USER_SETTINGS)!;
    expect(installed).toBe(
      EDITED.replace(
        '/* keep */\n        }\n',
        '/* keep */\n        },\n        "docs": {\n            "command": "npx",\n            "args": [\n                "-y",\n                "docs-mcp"\n            ],\n            "env": {\n                "DOCS_TOKEN": "abc"\n            }\n        }\n',
      ),
    );
    expect((parseJsonc(installed).value as { mcpServers: object }).mcpServers).toEqual({
      mine: { command: 'node', args: ['./my-server.js'] },
      docs: { command: 'npx', args: ['-y', 'docs-mcp'], env: { DOCS_TOKEN: 'abc' } },
    });
    await adapter.mcp!.uninstall('docs', USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(EDITED);
  });

  test('a file without mcpServers gets the object; uninstall takes it away again byte for byte', async () => {
    setup({ [USER_SETTINGS]: WITHOUT_MCP });
    await adapter.mcp!.install({ name: 'remote', url: 'https://example.invalid/mcp' }, USER, ctx);
    expect(JSON.parse(host.files.get(USER_SETTINGS)!)).toEqual({
      security: { auth: { selectedType: 'gemini-api-key' } },
      mcpServers: { remote: { url: 'https://example.invalid/mcp', type: 'http' } },
    });
    await adapter.mcp!.uninstall('remote', USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(WITHOUT_MCP);
  });

  test('install is idempotent: the same entry twice writes the file once', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    await adapter.mcp!.install(DOCS, USER, ctx);
    const once = host.files.get(USER_SETTINGS);
    await adapter.mcp!.install({ ...DOCS }, USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(once);
  });

  test('an entry of the same name that svc did not write is never overwritten', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    await expect(adapter.mcp!.install({ name: 'mine', command: 'other' }, USER, ctx)).rejects.toMatchObject({
      code: 'integration_conflict',
    });
    // The same entry as the user's is already there: nothing to do, nothing claimed.
    await adapter.mcp!.install({ name: 'mine', command: 'node', args: ['./my-server.js'] }, USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(EDITED);
    await expect(adapter.mcp!.uninstall('mine', USER, ctx)).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(host.files.get(USER_SETTINGS)).toBe(EDITED);
  });

  test('installing svc’s own entry with other settings replaces it, and uninstall still restores the original', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    await adapter.mcp!.install(DOCS, USER, ctx);
    await adapter.mcp!.install({ name: 'docs', command: 'docs-mcp' }, USER, ctx);
    expect((JSON.parse(host.files.get(USER_SETTINGS)!.replace(/\/\/.*|\/\*.*?\*\//g, '')) as { mcpServers: object }).mcpServers).toEqual({
      mine: { command: 'node', args: ['./my-server.js'] },
      docs: { command: 'docs-mcp' },
    });
    await adapter.mcp!.uninstall('docs', USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(EDITED);
  });

  test('several entries uninstalled in any order leave the file as it was', async () => {
    setup({ [USER_SETTINGS]: WITHOUT_MCP });
    await adapter.mcp!.install(DOCS, USER, ctx);
    await adapter.mcp!.install({ name: 'two', command: 'two-mcp' }, USER, ctx);
    await adapter.mcp!.install({ name: 'three', url: 'http://127.0.0.1:9/mcp' }, USER, ctx);
    await adapter.mcp!.uninstall('docs', USER, ctx);
    await adapter.mcp!.uninstall('three', USER, ctx);
    await adapter.mcp!.uninstall('two', USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(WITHOUT_MCP);

    setup();
    await adapter.mcp!.install(DOCS, USER, ctx);
    await adapter.mcp!.install({ name: 'two', command: 'two-mcp' }, USER, ctx);
    await adapter.mcp!.uninstall('docs', USER, ctx);
    await adapter.mcp!.uninstall('two', USER, ctx);
    expect(host.files.has(USER_SETTINGS)).toBe(false);
  });

  test('changes the user made elsewhere in the file survive the uninstall', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    await adapter.mcp!.install(DOCS, USER, ctx);
    host.files.set(USER_SETTINGS, host.files.get(USER_SETTINGS)!.replace('"GitHub"', '"Dracula"'));
    await adapter.mcp!.uninstall('docs', USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(EDITED.replace('"GitHub"', '"Dracula"'));
  });

  test('inspect lists every server of the file, svc’s and the user’s, with the file path', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    await adapter.mcp!.install({ name: 'remote', url: 'https://example.invalid/mcp' }, USER, ctx);
    expect(await adapter.mcp!.inspect(USER, ctx)).toEqual({
      configPath: USER_SETTINGS,
      entries: [
        { name: 'mine', command: 'node', args: ['./my-server.js'], origin: 'other' },
        { name: 'remote', url: 'https://example.invalid/mcp', origin: 'svc' },
      ],
    });
  });

  test('the project scope edits <projectDir>/.gemini/settings.json and needs an absolute projectDir', async () => {
    await adapter.mcp!.install(DOCS, { scope: 'project', projectDir: '/work/app' }, ctx);
    expect([...host.files.keys()]).toEqual(['/work/app/.gemini/settings.json']);
    await expect(adapter.mcp!.inspect({ scope: 'project', projectDir: 'work/app' }, ctx)).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  test('a settings file that is not JSON is left alone, and the error names the file but not its content', async () => {
    const broken = '{ "mcpServers": { "x": { "env": { "TOKEN": "s3cr3t-token" } } }, }';
    setup({ [USER_SETTINGS]: broken });
    const error = await adapter.mcp!.install(DOCS, USER, ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'integration_config_invalid' });
    expect((error as Error).message).toContain(USER_SETTINGS);
    expect((error as Error).message).not.toContain('s3cr3t-token');
    expect(host.files.get(USER_SETTINGS)).toBe(broken);
  });

  test('an entry needs a name and exactly one of command and url', async () => {
    await expect(adapter.mcp!.install({ name: 'x' }, USER, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(adapter.mcp!.install({ name: 'x', command: 'a', url: 'http://b' }, USER, ctx)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(host.files.size).toBe(0);
  });

  test('with GEMINI_CLI_HOME set, <GEMINI_CLI_HOME>/.gemini/settings.json is edited, as the CLI reads it', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    const scope = { scope: 'user' as const, env: { GEMINI_CLI_HOME: '/srv/gemini' } };
    expect(await adapter.mcp!.install(DOCS, scope, ctx)).toEqual({ configPath: '/srv/gemini/.gemini/settings.json', changed: true });
    expect(host.files.get(USER_SETTINGS)).toBe(EDITED);
    expect(JSON.parse(host.files.get('/srv/gemini/.gemini/settings.json')!).mcpServers.docs.command).toBe('npx');
  });

  test('removing a server that is not there says so; one svc did not write needs force, which keeps every other byte', async () => {
    setup({ [USER_SETTINGS]: EDITED });
    await expect(adapter.mcp!.uninstall('ghost', USER, ctx)).rejects.toMatchObject({ code: 'integration_not_found' });
    await expect(adapter.mcp!.uninstall('mine', USER, ctx)).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(host.files.get(USER_SETTINGS)).toBe(EDITED);
    expect(await adapter.mcp!.uninstall('mine', { ...USER, force: true }, ctx)).toEqual({ configPath: USER_SETTINGS, changed: true, origin: 'other' });
    const after = host.files.get(USER_SETTINGS)!;
    expect(after).not.toContain('my-server.js');
    expect(after.split('\n')[0]).toBe(EDITED.split('\n')[0]);
  });
});
