import { SessionProcessSchema, type SessionAttachments } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { CodexAdapter } from '../src/codex-adapter.js';
import { PERMISSIONS } from './support/run-adapter.js';

const ATTACHMENTS: SessionAttachments = {
  mcpServers: [{ name: 'svc', command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task', SVC_TASK_ID: '7' } }],
  hooks: {
    stop: { command: ['/usr/bin/node', '/opt/svc/harness/hooks/turn-hook.mjs', 'stop'], timeoutSec: 10 },
    promptSubmit: { command: ['/usr/bin/node', '/opt/svc/harness/hooks/turn-hook.mjs', 'prompt'] },
    preToolUse: { command: ['/usr/bin/node', '/opt/svc/harness/hooks/ladder-hook.mjs'], toolNames: ['AskUserQuestion', 'request_user_input'], timeoutSec: 10 },
    permissionRequest: { command: ['/usr/bin/node', '/opt/svc/harness/hooks/approval-hook.cjs', '120'], timeoutSec: 120 },
  },
  directive: 'Say "ask_human"\nwhen nobody watches.',
};

async function session(attachments: SessionAttachments) {
  const host = createTestHost({ permissions: [...PERMISSIONS], cli: { command: '/usr/local/bin/codex', version: '0.169.0' }, config: {} });
  return SessionProcessSchema.parse(await new CodexAdapter().buildSessionProcess({ mode: 'fresh', cwd: '/w', attachments, baseArgs: ['--search'] }, host.context()));
}

describe('task terminal attachments', () => {
  test('each attachment is a -c override of this run (shape verified against codex 0.169.0), with hook trust bypassed', async () => {
    const process = await session(ATTACHMENTS);
    expect(process.unsupportedAttachments ?? []).toEqual([]);
    expect(process.args).toEqual([
      '--dangerously-bypass-hook-trust',
      '-c', 'mcp_servers.svc={command="/usr/bin/node",args=["/opt/svc/host/bin/svc.mjs", "mcp"],env={SVC_MCP_PROFILE="task",SVC_TASK_ID="7"},required=true}',
      '-c', 'hooks.Stop=[{hooks=[{type="command",command="/usr/bin/node /opt/svc/harness/hooks/turn-hook.mjs stop",timeout=10}]}]',
      '-c', 'notify=["/usr/bin/node", "/opt/svc/harness/hooks/turn-hook.mjs", "stop", "codex-notify"]',
      '-c', 'hooks.UserPromptSubmit=[{hooks=[{type="command",command="/usr/bin/node /opt/svc/harness/hooks/turn-hook.mjs prompt"}]}]',
      '-c', 'hooks.PreToolUse=[{matcher="^(AskUserQuestion|request_user_input)$",hooks=[{type="command",command="/usr/bin/node /opt/svc/harness/hooks/ladder-hook.mjs",timeout=10}]}]',
      '-c', 'hooks.PermissionRequest=[{hooks=[{type="command",command="/usr/bin/node /opt/svc/harness/hooks/approval-hook.cjs 120",timeout=120}]}]',
      '-c', 'developer_instructions="Say \\"ask_human\\"\\nwhen nobody watches."',
      '--search',
    ]);
  });
});
