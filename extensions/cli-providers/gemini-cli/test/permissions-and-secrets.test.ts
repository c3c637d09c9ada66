import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { CliStreamEvent, Permission } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { ALL_PERMISSIONS, readRecording, recordingHost } from './recording-host.js';

const REQUEST = { prompt: 'Say hello.', cwd: '/work/project' };
const SECRET = 'AIzaSy-this-is-the-secret-key-0123456789';
const CONFIG = { model: 'gemini-2.5-flash', apiKey: SECRET };

function without(permission: Permission): Permission[] {
  return ALL_PERMISSIONS.filter((p) => p !== permission);
}

describe('permissions', () => {
  test('without process:spawn, generate and stream fail with permission_denied and nothing runs', async () => {
    const host = recordingHost('json-text', { permissions: without('process:spawn'), config: CONFIG });
    const adapter = await svcCliPlugin.createAdapter();
    await expect(adapter.generate(REQUEST, host.context())).rejects.toMatchObject({ code: 'permission_denied' });
    const drain = async () => {
      for await (const _event of cliStreamEvents(adapter.stream!(REQUEST, host.context()))) void _event;
    };
    await expect(drain()).rejects.toMatchObject({ code: 'permission_denied' });
    expect(host.spawned).toEqual([]);
  });

  test('without config:provider, the adapter cannot read its settings: permission_denied', async () => {
    const host = recordingHost('json-text', { permissions: without('config:provider'), config: CONFIG });
    const adapter = await svcCliPlugin.createAdapter();
    await expect(adapter.generate(REQUEST, host.context())).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(adapter.buildSessionProcess({ mode: 'fresh', cwd: '/w' }, host.context())).rejects.toMatchObject({
      code: 'permission_denied',
    });
  });

  test('without an integration permission, MCP, hooks and skills cannot touch files', async () => {
    const host = recordingHost('version', { permissions: ['process:spawn', 'config:provider'] });
    const adapter = await svcCliPlugin.createAdapter();
    const ctx = host.context();
    const user = { scope: 'user' as const };
    await expect(adapter.mcp!.install({ name: 'docs', command: 'npx' }, user, ctx)).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(adapter.hooks!.inspect(user, ctx)).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(adapter.skills!.install({ name: 'review', content: '# Review\n' }, user, ctx)).rejects.toMatchObject({
      code: 'permission_denied',
    });
    expect(host.files.size).toBe(0);
  });
});

describe('secrets', () => {
  test('the API key reaches the CLI only through envPatch', async () => {
    const host = recordingHost('json-text', { config: CONFIG });
    const adapter = await svcCliPlugin.createAdapter();
    await adapter.generate(REQUEST, host.context());
    expect(host.spawned[0]!.envPatch).toEqual({ GEMINI_API_KEY: SECRET });
    expect(JSON.stringify(host.spawned[0]!.args)).not.toContain(SECRET);
  });

  test('a key echoed by the CLI on stderr does not reach the error of generate or of stream', async () => {
    const leaky = { stdout: '', stderr: `Warning: something\nAPI key ${SECRET} was refused by the gateway\n`, exitCode: 1 };
    const adapter = await svcCliPlugin.createAdapter();
    const result = await adapter.generate(REQUEST, recordingHost(leaky, { config: CONFIG }).context());
    expect(result.error).toEqual({ code: 'cli_failed', message: 'Warning: something\nAPI key [redacted] was refused by the gateway' });
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!(REQUEST, recordingHost(leaky, { config: CONFIG }).context()))) events.push(event);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(JSON.stringify(events)).toContain('[redacted]');
  });

  test('a key inside a result error, an unparsable line or a warning is redacted in events, results and logs', async () => {
    const recorded = readRecording('stream-api-key-invalid');
    const stdout = `garbage line with ${SECRET}\n${recorded.stdout.replace('API key not valid.', `API key ${SECRET} not valid.`)}`;
    const host = recordingHost({ stdout, stderr: recorded.stderr, exitCode: recorded.exitCode }, { config: CONFIG });
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!({ ...REQUEST, maxTurns: 2 }, host.context()))) events.push(event);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'cli_auth_failed' });
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(host.logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(host.logs)).not.toContain(SECRET);
  });

  test('the config schema marks the API key sensitive', async () => {
    const { default: schema } = await import('../config.schema.json', { with: { type: 'json' } });
    expect(schema.properties.apiKey['x-svc'].sensitive).toBe(true);
  });
});
