import { cliStreamEvents, type CliStreamEvent, type CliStreamItem, type Permission } from '@svc-org/ai-sdk';
import { createTestHost, type ProcessScript } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { asScript, readRecording } from './support/recordings.js';

const SECRET = 'sk-ant-api03-very-secret-placeholder-value';

function hostWith(permissions: Permission[], script: ProcessScript = asScript(readRecording('stream-text'))) {
  return createTestHost({ permissions, config: { apiKey: SECRET }, spawn: () => script });
}

async function drain(events: AsyncIterable<CliStreamItem>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of cliStreamEvents(events)) out.push(event);
  return out;
}

describe('permissions', () => {
  test('without process:spawn a query fails with permission_denied and nothing runs', async () => {
    const host = hostWith(['config:provider']);
    const adapter = await svcCliPlugin.createAdapter();
    await expect(adapter.generate({ prompt: 'hi', cwd: '/w' }, host.context())).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(drain(adapter.stream!({ prompt: 'hi', cwd: '/w' }, host.context()))).rejects.toMatchObject({
      code: 'permission_denied',
      details: { permission: 'process:spawn' },
    });
    expect(host.spawned).toEqual([]);
  });

  test('without config:provider the settings cannot be read, so sessions and models fail with permission_denied', async () => {
    const host = hostWith(['process:spawn']);
    const adapter = await svcCliPlugin.createAdapter();
    await expect(adapter.buildSessionProcess({ mode: 'fresh', cwd: '/w' }, host.context())).rejects.toMatchObject({
      code: 'permission_denied',
      details: { permission: 'config:provider' },
    });
    await expect(adapter.models!(host.context())).rejects.toMatchObject({ code: 'permission_denied' });
  });

  test('integrations without an integration permission fail with permission_denied and touch no file', async () => {
    const host = hostWith(['process:spawn', 'config:provider']);
    const adapter = await svcCliPlugin.createAdapter();
    const user = { scope: 'user' as const };
    await expect(adapter.mcp!.install({ name: 'x', command: 'node' }, user, host.context())).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(adapter.hooks!.install({ event: 'PreToolUse', matcher: 'Bash', command: '/h' }, user, host.context())).rejects.toMatchObject({
      code: 'permission_denied',
    });
    await expect(adapter.skills!.install({ name: 'x', content: 'y' }, user, host.context())).rejects.toMatchObject({ code: 'permission_denied' });
    expect(host.files.size).toBe(0);
  });
});

describe('secrets', () => {
  test('the API key reaches the CLI only through its environment', async () => {
    const host = hostWith(['process:spawn', 'config:provider']);
    const adapter = await svcCliPlugin.createAdapter();
    await adapter.generate({ prompt: 'hi', cwd: '/w' }, host.context());
    expect(host.spawned[0]!.envPatch).toEqual({ ANTHROPIC_API_KEY: SECRET });
    expect(JSON.stringify({ ...host.spawned[0], envPatch: undefined })).not.toContain(SECRET);
    expect(JSON.stringify(host.logs)).not.toContain(SECRET);
  });

  test('a key echoed by the CLI is redacted from errors, warnings and logs', async () => {
    const script: ProcessScript = {
      stdout: [`not json: ${SECRET}\n`, `{"type":"result","subtype":"success","is_error":true,"api_error_status":401,"result":"bad key ${SECRET}"}\n`],
      stderr: `fatal: key ${SECRET} refused\n`,
      exitCode: 1,
    };
    const host = hostWith(['process:spawn', 'config:provider'], script);
    const adapter = await svcCliPlugin.createAdapter();
    const result = await adapter.generate({ prompt: 'hi', cwd: '/w' }, host.context());
    expect(result.error).toEqual({ code: 'cli_auth_failed', message: 'bad key [redacted]' });
    expect(result.warnings).toEqual(['ignored an unparsable line from claude: not json: [redacted]']);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(JSON.stringify(host.logs)).not.toContain(SECRET);

    const failing = hostWith(['process:spawn', 'config:provider'], { stderr: `fatal: key ${SECRET} refused\n`, exitCode: 2 });
    const events = await drain(adapter.stream!({ prompt: 'hi', cwd: '/w' }, failing.context()));
    expect(events).toEqual([
      { type: 'error', code: 'cli_failed', message: 'claude exited with code 2: fatal: key [redacted] refused' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('an invalid setting is named in the error, never its value', async () => {
    const host = createTestHost({ permissions: ['process:spawn', 'config:provider'], config: { apiKey: 12345, model: 'x' } });
    const adapter = await svcCliPlugin.createAdapter();
    const error = await Promise.resolve(adapter.buildSessionProcess({ mode: 'fresh', cwd: '/w' }, host.context())).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_request', message: 'config.apiKey must be a string' });
    expect(JSON.stringify(error)).not.toContain('12345');
  });
});
