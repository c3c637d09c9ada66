import { SessionProcessSchema, type SessionAttachments } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { QwenCodeAdapter } from '../src/qwen-code-adapter.js';

const ATTACHMENTS: SessionAttachments = {
  mcpServers: [{ name: 'svc', command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task' } }],
  hooks: {
    stop: { command: ['/usr/bin/node', '/opt/svc/turn-hook.mjs', 'stop'], timeoutSec: 15 },
    promptSubmit: { command: ['/usr/bin/node', '/opt/svc/turn-hook.mjs', 'prompt'] },
    preToolUse: { command: ['/usr/bin/node', '/opt/my svc/ladder-hook.mjs'], toolNames: ['AskUserQuestion', 'ask_user_question'] },
    permissionRequest: { command: ['/usr/bin/node', '/opt/svc/approval-hook.cjs', '120'], timeoutSec: 120 },
  },
  directive: '- Use ask_human when nobody watches.',
};

function session(attachments: SessionAttachments, runtimeDir?: string) {
  const host = createTestHost({ cli: { command: '/usr/local/bin/qwen' } });
  return SessionProcessSchema.parse(
    new QwenCodeAdapter().buildSessionProcess({ mode: 'fresh', cwd: '/w', attachments, baseArgs: ['--yolo'], ...(runtimeDir ? { runtimeDir } : {}) }, host.context()),
  );
}

describe('task terminal attachments', () => {
  test('MCP servers and the directive become --mcp-config and --append-system-prompt, before the base args', () => {
    const process = session(ATTACHMENTS, '/svc/runs/task-3-abc');
    expect(process.args).toEqual([
      '--mcp-config',
      JSON.stringify({ mcpServers: { svc: { command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task' } } } }),
      // A value starting with "-" is kept whole in the --flag=value form.
      '--append-system-prompt=- Use ask_human when nobody watches.',
      '--yolo',
    ]);
    // No Qwen Code hook runs only when it would ask for approval: its prompts stay in the terminal.
    expect((process.unsupportedAttachments ?? []).map((entry) => entry.kind)).toEqual(['permissionRequestHook']);
  });

  test('hooks go into a system-defaults settings file of the run folder, named by QWEN_CODE_SYSTEM_DEFAULTS_PATH', () => {
    const process = session(ATTACHMENTS, '/svc/runs/task-3-abc');
    expect(process.envPatch).toEqual({ QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/svc/runs/task-3-abc/qwen-system-defaults.json' });
    expect(process.files?.map((file) => file.name)).toEqual(['qwen-system-defaults.json']);
    expect(JSON.parse(process.files![0]!.content)).toEqual({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: '/usr/bin/node /opt/svc/turn-hook.mjs prompt' }] }],
        Stop: [{ hooks: [{ type: 'command', command: '/usr/bin/node /opt/svc/turn-hook.mjs stop', timeout: 15 }] }],
        PreToolUse: [{ matcher: '^(AskUserQuestion|ask_user_question)$', hooks: [{ type: 'command', command: "/usr/bin/node '/opt/my svc/ladder-hook.mjs'" }] }],
      },
    });
  });

  test('without a run folder from the host, the hooks are reported unsupported and no file is asked for', () => {
    const process = session(ATTACHMENTS);
    expect(process.files).toBeUndefined();
    expect((process.unsupportedAttachments ?? []).map((entry) => entry.kind)).toEqual(['permissionRequestHook', 'stopHook', 'promptSubmitHook', 'preToolUseHook']);
  });
});
