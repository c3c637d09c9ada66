import { cliStreamEvents } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { recordingScript } from './support/recordings.js';

// The host refuses a call whose permission was not granted; the adapter passes that on instead of
// turning it into a fallback or an error event.
describe('without process:spawn', () => {
  const host = createTestHost({ permissions: ['config:provider'], cli: { command: 'codex' }, spawn: () => recordingScript('text') });

  test('generate() fails with permission_denied and spawns nothing', async () => {
    await expect(new CodexAdapter().generate({ prompt: 'p', cwd: '/w' }, host.context())).rejects.toMatchObject({ code: 'permission_denied' });
    expect(host.spawned).toEqual([]);
  });

  test('stream() fails with permission_denied', async () => {
    const consume = async () => {
      for await (const _event of cliStreamEvents(new CodexAdapter().stream({ prompt: 'p', cwd: '/w' }, host.context()))) void _event;
    };
    await expect(consume()).rejects.toMatchObject({ code: 'permission_denied' });
  });

  test('models() fails with permission_denied rather than falling back to the documented list', async () => {
    await expect(new CodexAdapter().models(host.context())).rejects.toMatchObject({ code: 'permission_denied' });
  });
});

describe('without an integration permission', () => {
  test('MCP install cannot touch files', async () => {
    const host = createTestHost({ permissions: ['process:spawn', 'config:provider'] });
    await expect(
      new CodexAdapter().mcp.install({ name: 'docs', command: 'npx', args: ['docs-mcp'] }, { scope: 'user' }, host.context()),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect([...host.files.keys()]).toEqual([]);
  });
});
