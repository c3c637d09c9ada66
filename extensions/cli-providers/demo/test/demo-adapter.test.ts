// The demo provider's adapter and its agent run directly: the run's attachments travel in a file of
// the run folder (never in arguments), and the agent started outside a task terminal changes nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionProcessSchema, type SessionAttachments } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { AGENT_SCRIPT, DemoAdapter, RUN_FILE } from '../src/demo-adapter.js';

const ATTACHMENTS: SessionAttachments = {
  mcpServers: [{ name: 'svc', command: '/usr/bin/node', args: ['/opt/svc/host/bin/svc.mjs', 'mcp'], env: { SVC_MCP_PROFILE: 'task', SVC_TASK_CREDENTIAL: 'secret-credential' } }],
  hooks: {
    stop: { command: ['/usr/bin/node', '/opt/svc/turn-hook.mjs', 'stop'], timeoutSec: 15 },
    promptSubmit: { command: ['/usr/bin/node', '/opt/svc/turn-hook.mjs', 'prompt'] },
    preToolUse: { command: ['/usr/bin/node', '/opt/svc/ladder-hook.cjs'], toolNames: ['AskUserQuestion'] },
  },
  directive: 'Use ask_human when nobody watches.',
};

function session(request: { mode?: 'fresh' | 'resume'; sessionId?: string; runtimeDir?: string; attachments?: SessionAttachments }) {
  const host = createTestHost({ cli: { command: '/usr/bin/node' } });
  return SessionProcessSchema.parse(new DemoAdapter().buildSessionProcess({ mode: 'fresh', cwd: '/w', baseArgs: ['--extra'], ...request }, host.context()));
}

describe('the demo adapter', () => {
  test('runs the agent script with the resolved Node; MCP servers, hooks and directive go into a file of the run folder', () => {
    const process = session({ attachments: ATTACHMENTS, runtimeDir: '/svc/runs/task-3-abc' });
    expect(process).toMatchObject({ command: '/usr/bin/node', cwd: '/w' });
    expect(process.args).toEqual([AGENT_SCRIPT, '--run-file', `/svc/runs/task-3-abc/${RUN_FILE}`, '--extra']);
    expect(process.args.join(' ')).not.toContain('secret-credential');
    expect(process.unsupportedAttachments ?? []).toEqual([]);
    expect(JSON.parse(process.files![0]!.content)).toEqual({
      mcpServers: ATTACHMENTS.mcpServers,
      hooks: { stop: ATTACHMENTS.hooks!.stop!.command, promptSubmit: ATTACHMENTS.hooks!.promptSubmit!.command },
      directive: 'Use ask_human when nobody watches.',
    });
  });

  test('a resumed session names its id, or continues; without a run folder every attachment is reported unsupported', () => {
    expect(session({ mode: 'resume', sessionId: 'svc-demo-3' }).args).toEqual([AGENT_SCRIPT, '--resume', 'svc-demo-3', '--extra']);
    expect(session({ mode: 'resume' }).args).toEqual([AGENT_SCRIPT, '--continue', '--extra']);
    const bare = session({ attachments: ATTACHMENTS });
    expect(bare.files).toBeUndefined();
    expect(bare.unsupportedAttachments?.map((entry) => entry.kind)).toEqual(['mcpServers', 'stopHook', 'promptSubmitHook', 'directive']);
  });
});

describe('a query', () => {
  test('gets a fixed answer saying the agent works in task terminals', async () => {
    const host = createTestHost({ cli: { command: '/usr/bin/node' } });
    const result = await new DemoAdapter().generate({ prompt: 'hi', cwd: '/w' }, host.context());
    expect(result).toMatchObject({ finishReason: 'stop', text: expect.stringContaining('svc task start <task id> --connection <demo connection>') });
  });
});

describe('the demo agent outside a task terminal', () => {
  test('says where it works and changes nothing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'svc-demo-agent-'));
    try {
      const { SVC_TASK_ID: _ignored, ...env } = process.env;
      const output = execFileSync(process.execPath, [AGENT_SCRIPT], { cwd: folder, env, input: '', encoding: 'utf8' });
      expect(output).toBe(
        'svc demo agent 0.1.0: scripted, no model, no account, no network\n' +
          'It works in a task terminal of svc: svc task start <task id> --connection <a demo connection>.\n' +
          'Started anywhere else it changes nothing.\n',
      );
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
