// The public `codex exec --json` samples in ../shared/cli-formats, through the adapter.
import { describe, expect, test } from 'vitest';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { publicSampleScript } from './support/recordings.js';
import { PERMISSIONS, streamScript } from './support/run-adapter.js';

describe('public codex exec --json samples', () => {
  test('the docs sample (docs/exec.md): reasoning twice, a command pair, the answer, 3-field usage', async () => {
    const { events } = await streamScript(publicSampleScript('codex-exec-json.jsonl'));
    expect(events).toEqual([
      { type: 'session', sessionId: '0199a213-81c0-7800-8aa1-bbab2a035a53' },
      { type: 'reasoning', text: '**Searching for README files**' },
      { type: 'tool-call', toolCallId: 'item_1', toolName: 'command_execution', input: { command: 'bash -lc ls' } },
      {
        type: 'tool-result',
        toolCallId: 'item_1',
        toolName: 'command_execution',
        output: {
          exitCode: 0,
          output:
            '2025-09-11\nAGENTS.md\nCHANGELOG.md\ncliff.toml\ncodex-cli\ncodex-rs\ndocs\nexamples\nflake.lock\nflake.nix\nLICENSE\nnode_modules\nNOTICE\npackage.json\npnpm-lock.yaml\npnpm-workspace.yaml\nPNPM.md\nREADME.md\nscripts\nsdk\ntmp\n',
        },
        isError: false,
      },
      { type: 'reasoning', text: '\n\n**Checking repository root for README**' },
      { type: 'text', text: 'Yep — there’s a `README.md` in the repository root.' },
      { type: 'usage', inputTokens: 24763, outputTokens: 122, totalTokens: 24885 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('the 0.146.1 capture: the skills-budget error item is a warning; command and file change pairs', async () => {
    const test = createTestHost({
      permissions: [...PERMISSIONS],
      cli: { command: 'codex' },
      spawn: () => publicSampleScript('codex-exec-json-real-0.146.1.jsonl'),
    });
    const result = await new CodexAdapter().generate({ prompt: 'p', cwd: '/repo' }, test.context());
    expect(result).toEqual({
      text: 'I’ll perform the three filesystem actions in the exact order given.\n\nDONE',
      toolCalls: [
        { toolCallId: 'item_2', toolName: 'command_execution', input: { command: "/bin/zsh -lc 'ls -la'" } },
        { toolCallId: 'item_4', toolName: 'file_change', input: { changes: [{ path: '/repo/notes.txt', kind: 'update' }] } },
      ],
      toolResults: [
        {
          toolCallId: 'item_2',
          toolName: 'command_execution',
          output: { exitCode: 0, output: 'total 32\ndrwxr-xr-x@ 6 shoaib  wheel  19' },
          isError: false,
        },
        { toolCallId: 'item_4', toolName: 'file_change', output: { status: 'completed' }, isError: false },
      ],
      usage: { inputTokens: 79281, outputTokens: 301, totalTokens: 79582 },
      sessionId: '019fd9f6-3e33-72e0-89e8-49e33838d1cf',
      finishReason: 'stop',
      warnings: [
        'Skill descriptions were shortened to fit the 2% skills context budget. Codex can still see every skill, but some descriptions are shorter. Disable unused skills or plugins to leave more room for the rest.',
      ],
    });
  });

  test('the 0.146.1 resume capture after its first turn: same thread id, usage is the delta', async () => {
    const files = ['codex-exec-json-real-0.146.1.jsonl', 'codex-exec-json-resume-real-0.146.1.jsonl'];
    const test = createTestHost({ permissions: [...PERMISSIONS], cli: { command: 'codex' }, spawn: () => publicSampleScript(files.shift()!) });
    const adapter = new CodexAdapter();
    const first = await adapter.generate({ prompt: 'p', cwd: '/repo' }, test.context());
    const resumed = await adapter.generate({ prompt: 'which file?', cwd: '/repo', resume: first.sessionId! }, test.context());
    expect(resumed).toEqual({
      text: 'notes.txt',
      toolCalls: [],
      toolResults: [],
      usage: { inputTokens: 99831 - 79281, outputTokens: 307 - 301, totalTokens: 99831 - 79281 + 307 - 301 },
      sessionId: '019fd9f6-3e33-72e0-89e8-49e33838d1cf',
      finishReason: 'stop',
      warnings: [],
    });
  });

  test('the 0.146.0 item lines: MCP pair, a lone failed MCP completion, a todo_list update', async () => {
    const { events } = await streamScript(publicSampleScript('codex-exec-json-items-real-0.146.0.jsonl'));
    expect(events).toEqual([
      { type: 'tool-call', toolCallId: 'item_1', toolName: 'mcp__mcp-crm-calendar__get_upcoming_meetings', input: {} },
      {
        type: 'tool-result',
        toolCallId: 'item_1',
        toolName: 'mcp__mcp-crm-calendar__get_upcoming_meetings',
        output: { content: [{ type: 'text', text: '...' }], structured_content: null },
        isError: false,
      },
      { type: 'tool-call', toolCallId: 'item_7', toolName: 'mcp__mcp-portfolio__get_performance', input: { client_id: 'cli-001', period: 'YTD' } },
      {
        type: 'tool-result',
        toolCallId: 'item_7',
        toolName: 'mcp__mcp-portfolio__get_performance',
        output: { error: { message: 'tool call error: tool call failed for `mcp-portfolio/get_performance`' } },
        isError: true,
      },
      {
        type: 'tool-call',
        toolCallId: 'item_2',
        toolName: 'todo_list',
        input: {
          items: [
            { text: 'Identify client_id', completed: true },
            { text: 'Review positions', completed: false },
          ],
        },
      },
      // Lines quoted one by one, not a run: no thread.started, no turn.completed.
      { type: 'finish', finishReason: 'other' },
    ]);
  });
});
