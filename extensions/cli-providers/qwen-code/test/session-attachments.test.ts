import { SessionProcessSchema, type SessionAttachments } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { QwenCodeAdapter } from '../src/qwen-code-adapter.js';

const ATTACHMENTS: SessionAttachments = {
  mcpServers: [{ name: 'svc', command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task' } }],
  hooks: {
    stop: { command: ['/usr/bin/node', 'turn-hook.mjs', 'stop'] },
    preToolUse: { command: ['/usr/bin/node', 'ladder-hook.mjs'], toolNames: ['ask_user_question'] },
  },
  directive: '- Use ask_human when nobody watches.',
};

describe('task terminal attachments', () => {
  test('MCP servers and the directive become --mcp-config and --append-system-prompt; hooks are reported unsupported', () => {
    const host = createTestHost({ cli: { command: '/usr/local/bin/qwen' } });
    const process = SessionProcessSchema.parse(new QwenCodeAdapter().buildSessionProcess({ mode: 'fresh', cwd: '/w', attachments: ATTACHMENTS, baseArgs: ['--yolo'] }, host.context()));
    expect(process.args).toEqual([
      '--mcp-config',
      JSON.stringify({ mcpServers: { svc: { command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task' } } } }),
      // A value starting with "-" is kept whole in the --flag=value form.
      '--append-system-prompt=- Use ask_human when nobody watches.',
      '--yolo',
    ]);
    expect((process.unsupportedAttachments ?? []).map((entry) => entry.kind)).toEqual(['stopHook', 'preToolUseHook']);
  });
});
