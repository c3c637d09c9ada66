// Every `exec --json` recording of the real codex-cli 0.169.0 (test/fake-clis/codex/recordings),
// through the adapter, asserting the exact canonical events, warnings and results.
import { describe, expect, test } from 'vitest';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { recordingScript } from './support/recordings.js';
import { PERMISSIONS, streamScript } from './support/run-adapter.js';

const usage = (inputTokens: number, outputTokens: number): CliStreamEvent => ({
  type: 'usage',
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
});
const session = (sessionId: string): CliStreamEvent => ({ type: 'session', sessionId });
const stop: CliStreamEvent = { type: 'finish', finishReason: 'stop' };
const warnings = (test: { logs: Array<{ level: string; message: string; fields?: Record<string, unknown> }> }) =>
  test.logs.filter((log) => log.level === 'warn').map((log) => log.fields?.message);

const TEXT_THREAD = '01a2078e-18b6-7f70-b162-254f546e8680';
const AUTH_MESSAGE =
  'unexpected status 401 Unauthorized: Incorrect API key provided: sk-place*************-key. You can find your API key at https://platform.openai.com/account/api-keys., url: http://127.0.0.1:34463/v1/responses';
const STREAM_FAILURE = 'stream disconnected before completion: The server had an error while processing your request.';

describe('replaying the real codex exec --json recordings', () => {
  test('plain text: session, reasoning, text, usage, stop', async () => {
    const { events, test } = await streamScript(recordingScript('text'));
    expect(events).toEqual([
      session(TEXT_THREAD),
      { type: 'reasoning', text: '**Greeting the user**' },
      { type: 'text', text: 'Hello from the scripted model.' },
      usage(1500, 30),
      stop,
    ]);
    expect(warnings(test)).toEqual([]);
  });

  test('a command execution pairs its call and result by item id, between commentary and answer', async () => {
    const { events } = await streamScript(recordingScript('tool'));
    expect(events).toEqual([
      session('01a2078e-1f7d-7853-bed2-385204e4b36f'),
      { type: 'reasoning', text: '**Running the command**' },
      { type: 'text', text: 'I will run the command.' },
      { type: 'tool-call', toolCallId: 'item_2', toolName: 'command_execution', input: { command: "/bin/bash -lc 'echo hello-from-tool'" } },
      {
        type: 'tool-result',
        toolCallId: 'item_2',
        toolName: 'command_execution',
        output: { exitCode: 0, output: 'hello-from-tool\n' },
        isError: false,
      },
      { type: 'text', text: '\n\nThe command printed hello-from-tool.' },
      usage(3100, 60),
      stop,
    ]);
  });

  test('a command that exits non-zero is a tool result with isError', async () => {
    const { events } = await streamScript(recordingScript('tool-failed'));
    expect(events.slice(1, 3)).toEqual([
      { type: 'tool-call', toolCallId: 'item_0', toolName: 'command_execution', input: { command: "/bin/bash -lc 'ls /definitely-not-here'" } },
      {
        type: 'tool-result',
        toolCallId: 'item_0',
        toolName: 'command_execution',
        output: { exitCode: 2, output: "ls: cannot access '/definitely-not-here': No such file or directory\n" },
        isError: true,
      },
    ]);
    expect(events.at(-1)).toEqual(stop);
  });

  test('an apply_patch edit is a file_change call and result', async () => {
    const { events } = await streamScript(recordingScript('file-change'));
    expect(events).toEqual([
      session('01a2078e-2547-7a73-9a85-eccc99bef61e'),
      {
        type: 'tool-call',
        toolCallId: 'item_0',
        toolName: 'file_change',
        input: { changes: [{ path: '/var/tmp/svc-codex-rec/work/notes.txt', kind: 'add' }] },
      },
      { type: 'tool-result', toolCallId: 'item_0', toolName: 'file_change', output: { status: 'completed' }, isError: false },
      { type: 'text', text: 'Created notes.txt.' },
      usage(2400, 60),
      stop,
    ]);
  });

  test('an MCP call is named mcp__<server>__<tool>, its result is the MCP content', async () => {
    const { events } = await streamScript(recordingScript('mcp'));
    expect(events.slice(1, 3)).toEqual([
      { type: 'tool-call', toolCallId: 'item_0', toolName: 'mcp__weather__get_forecast', input: { city: 'Paris' } },
      {
        type: 'tool-result',
        toolCallId: 'item_0',
        toolName: 'mcp__weather__get_forecast',
        output: { content: [{ type: 'text', text: 'Sunny in Paris, 21 C' }], structured_content: null },
        isError: false,
      },
    ]);
  });

  test('a failed MCP call carries its error as an error result', async () => {
    const { events } = await streamScript(recordingScript('mcp-failed'));
    expect(events[2]).toEqual({
      type: 'tool-result',
      toolCallId: 'item_0',
      toolName: 'mcp__weather__get_forecast',
      output: { error: { message: 'MCP tool call requires approval, but approval policy is never' } },
      isError: true,
    });
  });

  test('a tool refused by the sandbox leaves no item; the stderr ERROR line becomes a warning', async () => {
    const { events, test } = await streamScript(recordingScript('sandbox-rejected'));
    expect(events.filter((event) => event.type === 'tool-call' || event.type === 'tool-result')).toEqual([]);
    expect(events.at(-1)).toEqual(stop);
    expect(warnings(test)).toEqual([
      'codex stderr: 2026-11-23T08:38:06.694094Z ERROR codex_core::tools::router: error=patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings',
    ]);
  });

  test('a hook run with --dangerously-bypass-hook-trust: two warning items, no tool item', async () => {
    const { events, test } = await streamScript(recordingScript('hook-deny-bypass'));
    expect(events).toEqual([
      session('01a20799-f4df-75c2-b8c0-a09ff64f6042'),
      { type: 'text', text: 'The hook blocked the command.' },
      usage(2400, 60),
      stop,
    ]);
    const notice = '`--dangerously-bypass-hook-trust` is enabled. Enabled hooks may run without review for this invocation.';
    expect(warnings(test)).toEqual([
      notice,
      notice,
      'codex stderr: 2026-11-23T08:51:00.199553Z ERROR codex_core::tools::router: error=Command blocked by PreToolUse hook: blocked by the svc recording hook. Command: echo should-not-run',
    ]);
  });

  test('a trusted hook that denies: no tool item and no trust warning', async () => {
    const { events, test } = await streamScript(recordingScript('hook-deny-trusted'));
    expect(events.map((event) => event.type)).toEqual(['session', 'text', 'usage', 'finish']);
    expect(warnings(test)).toEqual([
      'codex stderr: 2026-11-23T08:51:00.914956Z ERROR codex_core::tools::router: error=Command blocked by PreToolUse hook: blocked by the svc recording hook. Command: echo should-not-run',
    ]);
  });

  test('a warning item before turn.started (unknown model) is a warning, not an error', async () => {
    const { events, test } = await streamScript(recordingScript('unknown-model'));
    expect(events).toEqual([
      session('01a2078e-6ae3-7033-8ea6-eab86ae0ffd4'),
      { type: 'text', text: 'Hello from a model Codex does not know.' },
      usage(1200, 30),
      stop,
    ]);
    expect(warnings(test)).toEqual([
      'Model metadata for `scripted-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.',
    ]);
  });

  test('a top-level error event in a run that succeeds is a non-fatal warning', async () => {
    const { events, test } = await streamScript(recordingScript('reconnect'));
    expect(events).toEqual([
      session('01a2078e-67d0-7bc2-8985-8edee2d05829'),
      { type: 'text', text: 'Answered after one retry.' },
      usage(1200, 30),
      stop,
    ]);
    expect(warnings(test)).toEqual([`Reconnecting... 1/5 (${STREAM_FAILURE})`]);
  });

  test('HTTP 401: retries are warnings, turn.failed is one cli_auth_failed error, finish error', async () => {
    const { events, test } = await streamScript(recordingScript('auth-failure'));
    expect(events).toEqual([
      session('01a2078e-316b-7c20-beff-c13b3d7b8a33'),
      { type: 'error', code: 'cli_auth_failed', message: AUTH_MESSAGE },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(warnings(test)).toEqual([1, 2, 3, 4, 5].map((n) => `Reconnecting... ${n}/5 (${AUTH_MESSAGE})`));
  });

  test("the provider's key variable unset is cli_auth_failed", async () => {
    const { events } = await streamScript(recordingScript('missing-key'));
    expect(events.slice(1)).toEqual([
      { type: 'error', code: 'cli_auth_failed', message: 'Missing environment variable: `MOCK_API_KEY`.' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('a stream that keeps failing is cli_api_error', async () => {
    const { events } = await streamScript(recordingScript('turn-failed'));
    expect(events.slice(1)).toEqual([
      { type: 'error', code: 'cli_api_error', message: STREAM_FAILURE },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('a non-zero exit without turn.failed is cli_failed with the stderr tail', async () => {
    const { events } = await streamScript(recordingScript('not-git-repo'));
    expect(events).toEqual([
      {
        type: 'error',
        code: 'cli_failed',
        message: 'codex exited with code 1: Not inside a trusted directory and --skip-git-repo-check was not specified.',
      },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('generate() gathers the same into the canonical result, warnings included', async () => {
    const test = createTestHost({ permissions: [...PERMISSIONS], cli: { command: 'codex' }, spawn: () => recordingScript('reconnect') });
    const result = await new CodexAdapter().generate({ prompt: 'Say hello', cwd: '/work' }, test.context());
    expect(result).toEqual({
      text: 'Answered after one retry.',
      toolCalls: [],
      toolResults: [],
      usage: { inputTokens: 1200, outputTokens: 30, totalTokens: 1230 },
      sessionId: '01a2078e-67d0-7bc2-8985-8edee2d05829',
      finishReason: 'stop',
      warnings: [`Reconnecting... 1/5 (${STREAM_FAILURE})`],
    });
  });
});

describe('cumulative turn.completed.usage', () => {
  test('resumed runs of one thread report deltas: 1500/30, then 1700/25, then 1900/10', async () => {
    const scripts = ['text', 'resume', 'resume-again'];
    const test = createTestHost({ permissions: [...PERMISSIONS], cli: { command: 'codex' }, spawn: () => recordingScript(scripts.shift()!) });
    const adapter = new CodexAdapter();
    const first = await adapter.generate({ prompt: 'Say hello', cwd: '/work' }, test.context());
    const second = await adapter.generate({ prompt: 'What did I ask?', cwd: '/work', resume: first.sessionId! }, test.context());
    const third = await adapter.generate({ prompt: 'Are you there?', cwd: '/work', resume: first.sessionId! }, test.context());
    expect([first.usage, second.usage, third.usage]).toEqual([
      { inputTokens: 1500, outputTokens: 30, totalTokens: 1530 },
      { inputTokens: 1700, outputTokens: 25, totalTokens: 1725 },
      { inputTokens: 1900, outputTokens: 10, totalTokens: 1910 },
    ]);
    expect([first.sessionId, second.sessionId, third.sessionId]).toEqual([TEXT_THREAD, TEXT_THREAD, TEXT_THREAD]);
    expect(second.warnings).toEqual([]);
  });

  test('a resumed thread svc never saw reports the running total, and says so', async () => {
    const test = createTestHost({ permissions: [...PERMISSIONS], cli: { command: 'codex' }, spawn: () => recordingScript('resume') });
    const result = await new CodexAdapter().generate({ prompt: 'What did I ask?', cwd: '/work', resume: TEXT_THREAD }, test.context());
    expect(result.usage).toEqual({ inputTokens: 3200, outputTokens: 55, totalTokens: 3255 });
    expect(result.warnings).toEqual(['usage is the running total of the resumed codex thread (its earlier total is unknown to svc)']);
  });
});
