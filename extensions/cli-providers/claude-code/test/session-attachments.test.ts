import { SessionProcessSchema, type SessionAttachments } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';

const ATTACHMENTS: SessionAttachments = {
  mcpServers: [{ name: 'svc', command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task', SVC_TASK_ID: '7' } }],
  hooks: {
    stop: { command: ['/usr/bin/node', '/opt/svc/harness/hooks/turn-hook.mjs', 'stop'], timeoutSec: 10 },
    promptSubmit: { command: ['/usr/bin/node', '/opt/svc/harness/hooks/turn-hook.mjs', 'prompt'] },
    preToolUse: { command: ['/usr/bin/node', "/opt/my svc/it's/ladder-hook.mjs"], toolNames: ['AskUserQuestion', 'request_user_input'], timeoutSec: 10 },
    permissionRequest: { command: ['/usr/bin/node', '/opt/svc/harness/hooks/approval-hook.cjs', '120'], timeoutSec: 120 },
  },
  directive: 'Use ask_human when nobody watches.',
};

async function session(attachments: SessionAttachments, baseArgs: string[] = []) {
  const host = createTestHost({ permissions: ['process:spawn', 'config:provider'], cli: { command: '/opt/bin/claude' } });
  const adapter = await svcCliPlugin.createAdapter();
  return SessionProcessSchema.parse(await adapter.buildSessionProcess({ mode: 'fresh', cwd: '/w', attachments, baseArgs }, host.context()));
}

const valueAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1]!;

describe('task terminal attachments', () => {
  test('MCP servers, hooks and the directive become --mcp-config, --settings and --append-system-prompt, before the base args', async () => {
    const process = await session(ATTACHMENTS, ['--verbose']);
    expect(process.unsupportedAttachments ?? []).toEqual([]);
    expect(JSON.parse(valueAfter(process.args, '--mcp-config'))).toEqual({
      mcpServers: { svc: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task', SVC_TASK_ID: '7' } } },
    });
    expect(JSON.parse(valueAfter(process.args, '--settings'))).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: '/usr/bin/node /opt/svc/harness/hooks/turn-hook.mjs stop', timeout: 10 }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: '/usr/bin/node /opt/svc/harness/hooks/turn-hook.mjs prompt' }] }],
        PreToolUse: [
          {
            matcher: '^(AskUserQuestion|request_user_input)$',
            hooks: [{ type: 'command', command: `/usr/bin/node '/opt/my svc/it'\\''s/ladder-hook.mjs'`, timeout: 10 }],
          },
        ],
        // Every tool: Claude Code runs it only where it would open its permission dialog.
        PermissionRequest: [{ hooks: [{ type: 'command', command: '/usr/bin/node /opt/svc/harness/hooks/approval-hook.cjs 120', timeout: 120 }] }],
      },
    });
    expect(valueAfter(process.args, '--append-system-prompt')).toBe('Use ask_human when nobody watches.');
    expect(process.args.at(-1)).toBe('--verbose');
  });

  test('a session without attachments gets none of those flags', async () => {
    const process = await session({});
    expect(process.args).toEqual([]);
  });
});
