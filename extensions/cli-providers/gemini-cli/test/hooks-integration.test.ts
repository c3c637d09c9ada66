import type { AdapterContext, CliAdapter, HookEntry } from '@svc-org/ai-sdk';
import type { TestHost } from '@svc-org/ai-sdk/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { RECORDINGS, recordingHost } from './recording-host.js';

const HOME = '/home/ada';
const USER_SETTINGS = '/home/ada/.gemini/settings.json';
const USER = { scope: 'user' as const };
const DENY: HookEntry = { event: 'PreToolUse', matcher: 'read_file', command: '/opt/svc/hooks/deny-read.sh' };

const WITH_HOOKS = `{
  "hooksConfig": { "notifications": false },
  "hooks": {
    "AfterTool": [
      { "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh" }] }
    ],
    "BeforeTool": [
      {
        "matcher": "run_shell_command",
        "hooks": [{ "type": "command", "command": "./guard.sh", "timeout": 5000 }]
      }
    ]
  }
}
`;

let host: TestHost;
let ctx: AdapterContext;
let adapter: CliAdapter;

function setup(files: Record<string, string> = {}) {
  host = recordingHost('version', { files, platform: { homeDir: HOME } });
  ctx = host.context({ integration: 'hooks' });
}

beforeEach(async () => {
  adapter = await svcCliPlugin.createAdapter();
  setup();
});

describe('hooks integration (PreToolUse as BeforeTool in settings.json)', () => {
  test('install writes the hook in the shape the real CLI ran in the recorded deny scenario', async () => {
    await adapter.hooks!.install(DENY, USER, ctx);
    const source = readFileSync(join(RECORDINGS, 'stream-hook-deny.source.txt'), 'utf8');
    const recorded = JSON.parse(/User settings \(~\/\.gemini\/settings\.json\): (.*)/.exec(source)![1]!) as {
      hooks: { BeforeTool: Array<{ matcher: string; hooks: Array<{ type: string; command: string }> }> };
    };
    const written = JSON.parse(host.files.get(USER_SETTINGS)!) as typeof recorded;
    recorded.hooks.BeforeTool[0]!.hooks[0]!.command = DENY.command;
    expect(written).toEqual({ hooks: recorded.hooks });
  });

  test('install keeps the other events and groups; uninstall restores the file byte for byte', async () => {
    setup({ [USER_SETTINGS]: WITH_HOOKS });
    await adapter.hooks!.install(DENY, USER, ctx);
    const installed = JSON.parse(host.files.get(USER_SETTINGS)!) as { hooks: Record<string, unknown[]> };
    expect(installed.hooks.AfterTool).toHaveLength(1);
    expect(installed.hooks.BeforeTool).toEqual([
      { matcher: 'run_shell_command', hooks: [{ type: 'command', command: './guard.sh', timeout: 5000 }] },
      { matcher: 'read_file', hooks: [{ type: 'command', command: '/opt/svc/hooks/deny-read.sh' }] },
    ]);
    await adapter.hooks!.uninstall(DENY, USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(WITH_HOOKS);
  });

  test('install is idempotent, and a group of the user that already runs the command counts as installed', async () => {
    setup({ [USER_SETTINGS]: WITH_HOOKS });
    await adapter.hooks!.install(DENY, USER, ctx);
    const once = host.files.get(USER_SETTINGS);
    await adapter.hooks!.install({ ...DENY }, USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(once);

    setup({ [USER_SETTINGS]: WITH_HOOKS });
    await adapter.hooks!.install({ event: 'PreToolUse', matcher: 'run_shell_command', command: './guard.sh' }, USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(WITH_HOOKS);
    await expect(
      adapter.hooks!.uninstall({ event: 'PreToolUse', matcher: 'run_shell_command', command: './guard.sh' }, USER, ctx),
    ).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(host.files.get(USER_SETTINGS)).toBe(WITH_HOOKS);
  });

  test('a hook the user added to svc’s group stays when svc’s hook goes', async () => {
    await adapter.hooks!.install(DENY, USER, ctx);
    const edited = host.files.get(USER_SETTINGS)!.replace(
      '"command": "/opt/svc/hooks/deny-read.sh"\n          }',
      '"command": "/opt/svc/hooks/deny-read.sh"\n          },\n          {\n            "type": "command",\n            "command": "./audit.sh"\n          }',
    );
    host.files.set(USER_SETTINGS, edited);
    await adapter.hooks!.uninstall(DENY, USER, ctx);
    expect(JSON.parse(host.files.get(USER_SETTINGS)!)).toEqual({
      hooks: { BeforeTool: [{ matcher: 'read_file', hooks: [{ type: 'command', command: './audit.sh' }] }] },
    });
  });

  test('a created file goes away with the last hook; inspect lists the command hooks of BeforeTool only', async () => {
    await adapter.hooks!.install(DENY, USER, ctx);
    await adapter.hooks!.install({ event: 'PreToolUse', matcher: '', command: 'echo {}' }, USER, ctx);
    expect(await adapter.hooks!.inspect(USER, ctx)).toEqual({
      configPath: USER_SETTINGS,
      entries: [DENY, { event: 'PreToolUse', matcher: '', command: 'echo {}' }],
    });
    await adapter.hooks!.uninstall(DENY, USER, ctx);
    await adapter.hooks!.uninstall({ event: 'PreToolUse', matcher: '', command: 'echo {}' }, USER, ctx);
    expect(host.files.has(USER_SETTINGS)).toBe(false);

    setup({ [USER_SETTINGS]: WITH_HOOKS });
    expect((await adapter.hooks!.inspect(USER, ctx)).entries).toEqual([
      { event: 'PreToolUse', matcher: 'run_shell_command', command: './guard.sh' },
    ]);
  });

  test('only PreToolUse hooks with a command are accepted', async () => {
    await expect(
      adapter.hooks!.install({ event: 'PostToolUse', matcher: '', command: 'x' } as unknown as HookEntry, USER, ctx),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(adapter.hooks!.install({ ...DENY, command: ' ' }, USER, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(host.files.size).toBe(0);
  });

  test('hooks and MCP entries share the file and undo independently', async () => {
    setup({ [USER_SETTINGS]: WITH_HOOKS });
    await adapter.mcp!.install({ name: 'docs', command: 'docs-mcp' }, USER, ctx);
    await adapter.hooks!.install(DENY, USER, ctx);
    await adapter.mcp!.uninstall('docs', USER, ctx);
    await adapter.hooks!.uninstall(DENY, USER, ctx);
    expect(host.files.get(USER_SETTINGS)).toBe(WITH_HOOKS);
  });
});
