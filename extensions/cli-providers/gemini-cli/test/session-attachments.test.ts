import { SessionProcessSchema, type JsonValue } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { recordingHost } from './recording-host.js';

const CONFIG: Record<string, JsonValue> = { model: 'gemini-2.5-pro', approvalMode: 'default', trustWorkspace: false, extraArgs: [], apiKey: '' };

describe('task terminal attachments', () => {
  test('Gemini CLI has no per-run flag for them: each is reported unsupported and nothing is added to the arguments', async () => {
    const adapter = await svcCliPlugin.createAdapter();
    const process = SessionProcessSchema.parse(
      await adapter.buildSessionProcess(
        {
          mode: 'fresh',
          cwd: '/w',
          attachments: {
            mcpServers: [{ name: 'svc', command: 'node', args: ['svc.mjs', 'mcp'] }],
            hooks: {
              stop: { command: ['node', 'turn-hook.mjs', 'stop'] },
              preToolUse: { command: ['node', 'ladder-hook.mjs'], toolNames: ['ask_user'] },
              permissionRequest: { command: ['node', 'approval-hook.cjs', '120'] },
            },
            directive: 'Use ask_human.',
          },
        },
        recordingHost('stream-text', { config: CONFIG }).context(),
      ),
    );
    expect(process.args).toEqual(['-m', 'gemini-2.5-pro']);
    expect((process.unsupportedAttachments ?? []).map((entry) => entry.kind)).toEqual(['mcpServers', 'stopHook', 'preToolUseHook', 'permissionRequestHook', 'directive']);
  });
});
