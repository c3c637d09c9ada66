import { describe, expect, test } from 'vitest';
import type { HookEntry } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { codexHookStateKey, codexHookTrustHash } from '../src/hooks/codex-hook-trust-hash.js';
import { loadRecording } from './support/recordings.js';

const HOOKS = '/home/test/.codex/hooks.json';
const CONFIG = '/home/test/.codex/config.toml';
const user = { scope: 'user' as const };
const ESCALATE: HookEntry = { event: 'PreToolUse', matcher: 'request_user_input', command: '/opt/svc/hooks/escalate.mjs' };
const AUDIT: HookEntry = { event: 'PreToolUse', matcher: 'Bash', command: '/opt/audit/check.sh' };

const trustBlock = (key: string, entry: HookEntry) =>
  `[hooks.state."${key}"]\ntrusted_hash = "${codexHookTrustHash(entry.matcher, entry.command)}"\n`;

// A hooks.json the user keeps, pretty-printed, with a hook of another event and one PreToolUse group.
const USER_HOOKS = `{
  "hooks": {
    "SessionStart": [
      { "matcher": "startup", "hooks": [{ "type": "command", "command": "~/.codex/hooks/start.sh" }] }
    ],
    "PreToolUse": [
      {
        "matcher": "apply_patch",
        "hooks": [
          { "type": "command", "command": "~/.codex/hooks/guard.sh", "timeout": 10 }
        ]
      }
    ]
  }
}
`;
const USER_CONFIG = 'model = "gpt-5.5"\n\n[features]\nhooks = true\n';

function host(files: Record<string, string> = {}) {
  return createTestHost({ permissions: ['integration:hooks'], files });
}

describe('the Codex hook trust identity', () => {
  test('matches what codex 0.169.0 computes (app-server hooks/list) for the recorded hook', () => {
    const listed = loadRecording('app-server-hooks-list')
      .stdout.split('\n')
      .filter((line) => line.includes('"id":2'))
      .map((line) => JSON.parse(line).result.data[0].hooks[0])[0];
    expect(listed.trustStatus).toBe('trusted');
    expect(codexHookTrustHash(listed.matcher, listed.command)).toBe(listed.currentHash);
    expect(codexHookStateKey(listed.sourcePath, 0)).toBe(listed.key);
  });

  test('matches an independent app-server reading for another path', () => {
    // `codex app-server` hooks/list, codex-cli 0.169.0, for {"matcher":"Bash","hooks":[{"type":"command","command":"/scratch/codex-explore/deny-hook.sh"}]}.
    expect(codexHookTrustHash('Bash', '/scratch/codex-explore/deny-hook.sh')).toBe(
      'sha256:6ae87fd573f6038a1b28755efabe6336f19845d724c16be0133c72c7db529c54',
    );
  });
});

describe('PreToolUse hooks in ~/.codex/hooks.json, trusted in ~/.codex/config.toml', () => {
  test('install creates hooks.json in the layout Codex reads, and persists its trust', async () => {
    const test = host();
    await new CodexAdapter().hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(JSON.parse(test.files.get(HOOKS)!)).toEqual({
      hooks: { PreToolUse: [{ matcher: 'request_user_input', hooks: [{ type: 'command', command: '/opt/svc/hooks/escalate.mjs' }] }] },
    });
    expect(test.files.get(CONFIG)).toBe(trustBlock(`${HOOKS}:pre_tool_use:0:0`, ESCALATE));
  });

  test('install into existing files appends one group and one trust table, keeping every other byte', async () => {
    const test = host({ [HOOKS]: USER_HOOKS, [CONFIG]: USER_CONFIG });
    await new CodexAdapter().hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(test.files.get(HOOKS)).toBe(
      USER_HOOKS.replace(
        '        ]\n      }\n    ]\n  }\n}\n',
        '        ]\n      },\n      {\n        "matcher": "request_user_input",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "/opt/svc/hooks/escalate.mjs"\n          }\n        ]\n      }\n    ]\n  }\n}\n',
      ),
    );
    expect(test.files.get(CONFIG)).toBe(`${USER_CONFIG}\n${trustBlock(`${HOOKS}:pre_tool_use:1:0`, ESCALATE)}`);
  });

  test('inspect lists the PreToolUse command hooks', async () => {
    const test = host({ [HOOKS]: USER_HOOKS });
    const adapter = new CodexAdapter();
    await adapter.hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(await adapter.hooks.inspect(user, test.context({ integration: 'hooks' }))).toEqual({
      configPath: HOOKS,
      entries: [{ event: 'PreToolUse', matcher: 'apply_patch', command: '~/.codex/hooks/guard.sh', origin: 'other' }, { ...ESCALATE, origin: 'svc' }],
    });
  });

  test('installing twice is idempotent', async () => {
    const test = host({ [HOOKS]: USER_HOOKS, [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await adapter.hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    const after = [test.files.get(HOOKS), test.files.get(CONFIG)];
    await adapter.hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect([test.files.get(HOOKS), test.files.get(CONFIG)]).toEqual(after);
  });

  test('uninstall leaves both files byte for byte as before; files it created are removed', async () => {
    for (const files of [{ [HOOKS]: USER_HOOKS, [CONFIG]: USER_CONFIG }, {}] as Array<Record<string, string>>) {
      const test = host(files);
      const adapter = new CodexAdapter();
      await adapter.hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
      await adapter.hooks.uninstall(ESCALATE, user, test.context({ integration: 'hooks' }));
      expect(Object.fromEntries(test.files)).toEqual(files);
    }
  });

  test('a compact one-line hooks.json gets a compact group and comes back exactly', async () => {
    const compact = '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/a.sh"}]}]}}';
    const test = host({ [HOOKS]: compact });
    const adapter = new CodexAdapter();
    await adapter.hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(test.files.get(HOOKS)).toBe(
      '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/a.sh"}]},{"matcher":"request_user_input","hooks":[{"type":"command","command":"/opt/svc/hooks/escalate.mjs"}]}]}}',
    );
    await adapter.hooks.uninstall(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(test.files.get(HOOKS)).toBe(compact);
  });

  test('a hooks.json without PreToolUse gets the key added, and loses it again on uninstall', async () => {
    const onlyStart = '{\n  "hooks": {\n    "SessionStart": []\n  }\n}\n';
    const test = host({ [HOOKS]: onlyStart });
    const adapter = new CodexAdapter();
    await adapter.hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(JSON.parse(test.files.get(HOOKS)!).hooks.PreToolUse).toHaveLength(1);
    await adapter.hooks.uninstall(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(test.files.get(HOOKS)).toBe(onlyStart);
  });

  test('removing the first of two svc hooks moves the second one’s trust to its new position', async () => {
    const test = host({ [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await adapter.hooks.install(AUDIT, user, test.context({ integration: 'hooks' }));
    await adapter.hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(test.files.get(CONFIG)).toBe(
      `${USER_CONFIG}\n${trustBlock(`${HOOKS}:pre_tool_use:0:0`, AUDIT)}\n${trustBlock(`${HOOKS}:pre_tool_use:1:0`, ESCALATE)}`,
    );
    await adapter.hooks.uninstall(AUDIT, user, test.context({ integration: 'hooks' }));
    expect(JSON.parse(test.files.get(HOOKS)!).hooks.PreToolUse).toEqual([
      { matcher: 'request_user_input', hooks: [{ type: 'command', command: '/opt/svc/hooks/escalate.mjs' }] },
    ]);
    expect(test.files.get(CONFIG)).toBe(`${USER_CONFIG}\n${trustBlock(`${HOOKS}:pre_tool_use:0:0`, ESCALATE)}`);
    await adapter.hooks.uninstall(ESCALATE, user, test.context({ integration: 'hooks' }));
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
    expect(test.files.has(HOOKS)).toBe(false);
  });

  test('a stale trust entry at the new hook’s position is not overwritten: integration_conflict', async () => {
    const stale = `${USER_CONFIG}\n[hooks.state."${HOOKS}:pre_tool_use:0:0"]\ntrusted_hash = "sha256:0000"\n`;
    const test = host({ [CONFIG]: stale });
    await expect(new CodexAdapter().hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }))).rejects.toMatchObject({ code: 'integration_conflict' });
    expect(test.files.get(CONFIG)).toBe(stale);
  });

  test('a hooks.json that is not JSON is refused and left unchanged', async () => {
    const test = host({ [HOOKS]: '{ "hooks": ' });
    await expect(new CodexAdapter().hooks.install(ESCALATE, user, test.context({ integration: 'hooks' }))).rejects.toMatchObject({ code: 'integration_config_invalid' });
    expect(test.files.get(HOOKS)).toBe('{ "hooks": ');
  });

  test('project scope writes <project>/.codex/hooks.json; trust still goes to the user config', async () => {
    const test = host();
    await new CodexAdapter().hooks.install(ESCALATE, { scope: 'project', projectDir: '/work/app' }, test.context({ integration: 'hooks' }));
    expect([...test.files.keys()].sort()).toEqual([CONFIG, '/work/app/.codex/hooks.json']);
    expect(test.files.get(CONFIG)).toContain('"/work/app/.codex/hooks.json:pre_tool_use:0:0"');
  });

  test('with CODEX_HOME set, hooks.json and the trust go under it, where Codex reads them', async () => {
    const test = host({ [HOOKS]: USER_HOOKS, [CONFIG]: USER_CONFIG });
    const scope = { scope: 'user' as const, env: { CODEX_HOME: '/srv/codex' } };
    const change = await new CodexAdapter().hooks.install(ESCALATE, scope, test.context({ integration: 'hooks' }));
    expect(change).toEqual({ configPath: '/srv/codex/hooks.json', changed: true });
    expect(test.files.get('/srv/codex/config.toml')).toContain('[hooks.state.');
    expect(test.files.get(HOOKS)).toBe(USER_HOOKS);
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });

  test('removing a hook that is not there, or one svc did not write, says so and changes nothing', async () => {
    const test = host({ [HOOKS]: USER_HOOKS, [CONFIG]: USER_CONFIG });
    const adapter = new CodexAdapter();
    await expect(adapter.hooks.uninstall(ESCALATE, user, test.context({ integration: 'hooks' }))).rejects.toMatchObject({ code: 'integration_not_found' });
    const theirs = (await adapter.hooks.inspect(user, test.context({ integration: 'hooks' }))).entries[0]!;
    await expect(adapter.hooks.uninstall(theirs, user, test.context({ integration: 'hooks' }))).rejects.toMatchObject({ code: 'integration_not_owned' });
    expect(test.files.get(HOOKS)).toBe(USER_HOOKS);
    expect(test.files.get(CONFIG)).toBe(USER_CONFIG);
  });
});
