import type { HookEntry } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';

const SETTINGS = '/home/test/.claude/settings.json';
const user = { scope: 'user' as const };

// A hand-written settings file: 2 spaces and a final newline, a hook of the user's own on Bash.
const ORIGINAL = `${JSON.stringify(
  {
    model: 'opus',
    permissions: { allow: ['Bash(git status)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/audit-bash', timeout: 10 }] }] },
  },
  null,
  2,
)}\n`;

const ASK: HookEntry = { event: 'PreToolUse', matcher: 'AskUserQuestion', command: '/usr/local/bin/svc-hook ask' };
const BASH: HookEntry = { event: 'PreToolUse', matcher: 'Bash', command: '/usr/local/bin/svc-hook bash' };

async function setup(files: Record<string, string> = { [SETTINGS]: ORIGINAL }) {
  const host = createTestHost({ permissions: ['integration:hooks'], files });
  const adapter = await svcCliPlugin.createAdapter();
  return { host, hooks: adapter.hooks!, ctx: host.context({ integration: 'hooks' }) };
}

describe('hooks integration', () => {
  test('install adds a PreToolUse command hook: a new matcher group, or into the group of the same matcher', async () => {
    const { host, hooks, ctx } = await setup();
    await hooks.install(ASK, user, ctx);
    await hooks.install(BASH, user, ctx);
    const written = JSON.parse(host.files.get(SETTINGS)!);
    expect(written).toEqual({
      model: 'opus',
      permissions: { allow: ['Bash(git status)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: '/usr/local/bin/audit-bash', timeout: 10 },
              { type: 'command', command: '/usr/local/bin/svc-hook bash' },
            ],
          },
          { matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: '/usr/local/bin/svc-hook ask' }] },
        ],
      },
    });
    expect(host.files.get(SETTINGS)!.endsWith('}\n')).toBe(true);
  });

  test('install is idempotent', async () => {
    const { host, hooks, ctx } = await setup();
    await hooks.install(ASK, user, ctx);
    const once = host.files.get(SETTINGS);
    await hooks.install(ASK, user, ctx);
    expect(host.files.get(SETTINGS)).toBe(once);
  });

  test('uninstall leaves the file byte for byte as it was before install, in either order', async () => {
    for (const order of [
      [ASK, BASH],
      [BASH, ASK],
    ]) {
      const { host, hooks, ctx } = await setup();
      await hooks.install(ASK, user, ctx);
      await hooks.install(BASH, user, ctx);
      for (const entry of order) await hooks.uninstall(entry, user, ctx);
      expect(host.files.get(SETTINGS)).toBe(ORIGINAL);
    }
  });

  test('a hook the user already has is not ours: install changes nothing and uninstall keeps it', async () => {
    const { host, hooks, ctx } = await setup();
    const theirs: HookEntry = { event: 'PreToolUse', matcher: 'Bash', command: '/usr/local/bin/audit-bash' };
    await hooks.install(theirs, user, ctx);
    await expect(hooks.uninstall(theirs, user, ctx)).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(host.files.get(SETTINGS)).toBe(ORIGINAL);
  });

  test('a settings file created by install is removed by uninstall', async () => {
    const { host, hooks, ctx } = await setup({});
    await hooks.install(ASK, user, ctx);
    expect(JSON.parse(host.files.get(SETTINGS)!)).toEqual({
      hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: '/usr/local/bin/svc-hook ask' }] }] },
    });
    await hooks.uninstall(ASK, user, ctx);
    expect(host.files.has(SETTINGS)).toBe(false);
  });

  test('the project scope edits <dir>/.claude/settings.local.json; inspect lists every command hook', async () => {
    const { hooks, ctx } = await setup();
    const project = { scope: 'project' as const, projectDir: '/work/project' };
    await hooks.install(BASH, project, ctx);
    expect(await hooks.inspect(project, ctx)).toEqual({ configPath: '/work/project/.claude/settings.local.json', entries: [BASH] });
    expect(await hooks.inspect(user, ctx)).toEqual({
      configPath: SETTINGS,
      entries: [{ event: 'PreToolUse', matcher: 'Bash', command: '/usr/local/bin/audit-bash' }],
    });
  });

  test('only PreToolUse hooks with a command are accepted', async () => {
    const { hooks, ctx } = await setup();
    await expect(hooks.install({ event: 'PostToolUse' as 'PreToolUse', matcher: '', command: '/x' }, user, ctx)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(hooks.install({ event: 'PreToolUse', matcher: '', command: ' ' }, user, ctx)).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
