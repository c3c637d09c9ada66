// Conformance of the Qwen Code community sample: the real, pinned `qwen` (on Node 22, which it needs)
// driven by the real `svc`, the model side the scripted OpenAI-compatible chat server on 127.0.0.1.
// The provider configures nothing of the CLI's, so the connection's base args point it at the server
// (`--auth-type openai --openai-base-url … --openai-api-key <placeholder>`), as a user would.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../support/svc-process.js';
import {
  startOpenAiChatServer,
  type OpenAiChatServer,
  type ScriptedTurn,
  type SideTurn,
} from '../model-servers/openai-chat-server.js';
import { cancelQuery } from './support/cancel-query.js';
import { createConformanceSandbox, type ConformanceSandbox } from './support/conformance-sandbox.js';
import { enableInChosenMode } from './support/isolation-args.js';
import { mergeDeltas } from './support/merge-deltas.js';

import { plain, startTaskTerminals, type TaskTerminals } from './support/task-terminals.js';
import { waitFor } from '../support/svc-process.js';
const ID = 'svc-community.qwen-code';
const PLACEHOLDER_KEY = 'sk-placeholder-not-a-real-key';
// Qwen Code's background "managed memory" requests must not eat a scripted turn (as in its recorder).
const SIDE_TURNS: SideTurn[] = [
  { systemPrompt: /memory extraction subagent/, turn: { type: 'text', text: 'No memory updates.', usage: { promptTokens: 40, completionTokens: 4 } } },
  { systemPrompt: /managed memory dream/, turn: { type: 'text', text: 'Nothing to consolidate.', usage: { promptTokens: 50, completionTokens: 4 } } },
];
const QWEN_SETTINGS = `${JSON.stringify({ privacy: { usageStatisticsEnabled: false } }, null, 2)}\n`;
let sandbox: ConformanceSandbox;
const servers: OpenAiChatServer[] = [];

beforeAll(async () => {
  sandbox = createConformanceSandbox('qwen-code');
  writeFileSync(join(sandbox.workspace, 'hello.txt'), 'hello\n');
  // The user's own settings: usage statistics off, so no traffic but the model's.
  mkdirSync(join(sandbox.home, '.qwen'));
  writeFileSync(join(sandbox.home, '.qwen', 'settings.json'), QWEN_SETTINGS);
  // The sample is not built in: a user registers it in developer mode.
  await sandbox.ok(['ext', 'dev', 'add', join(REPO_ROOT, 'extensions/cli-providers/qwen-code')]);
  await enableInChosenMode(sandbox, ID);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  sandbox?.cleanup();
});

async function connect(name: string, script: ScriptedTurn[]) {
  const server = await startOpenAiChatServer({ script, sideTurns: SIDE_TURNS });
  servers.push(server);
  const args = ['--auth-type', 'openai', '--openai-base-url', server.baseUrl, '--openai-api-key', PLACEHOLDER_KEY];
  await sandbox.ok(['connection', 'add', name, '--provider', ID, ...args.map((arg) => `--arg=${arg}`)]);
  return server;
}

/** The conversation's requests (not the memory side requests). */
const turns = (server: OpenAiChatServer) => server.requests.filter((request) => request.turn !== -2);
type Message = { role?: string; content?: unknown; tool_call_id?: string };
const messagesOf = (body: unknown) => ((body as { messages?: Message[] }).messages ?? []);
const say = (text: string, promptTokens: number, completionTokens: number): ScriptedTurn => ({ type: 'text', text, usage: { promptTokens, completionTokens } });
const readHello = (id: string, workspace: string): ScriptedTurn => ({
  type: 'tool-calls',
  text: 'Let me read the file.',
  calls: [{ id, name: 'read_file', arguments: { file_path: join(workspace, 'hello.txt') } }],
  usage: { promptTokens: 20, completionTokens: 7 },
});

describe('Qwen Code through svc', () => {
  test('svc finds the pinned CLI and its version is in the provider range', async () => {
    const doctor = await sandbox.ok(['ext', 'doctor', ID]);
    expect(doctor.stdout).toContain(`cli-dependency  ${sandbox.cli.version} at ${join(sandbox.cli.binDir, 'qwen')}`);
  });

  test('plain text: session, text, usage and finish, exactly', async () => {
    const server = await connect('text', [say('Hello from the scripted model.', 12, 5)]);
    const result = await sandbox.query('text', 'Say hello');
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      { type: 'text', text: 'Hello from the scripted model.' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(turns(server)).toHaveLength(1);
    expect(turns(server)[0]!.headers.authorization).toBe(`Bearer ${PLACEHOLDER_KEY}`);
    expect(JSON.stringify(messagesOf(turns(server)[0]!.body).at(-1))).toContain('Say hello');
  });

  test('a tool call and its result, paired by id on both sides', async () => {
    const server = await connect('tool', [readHello('call_conformance_read', sandbox.workspace), say('The file says hello.', 30, 6)]);
    const result = await sandbox.query('tool', 'Read hello.txt');
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'Let me read the file.' },
      { type: 'tool-call', toolCallId: 'call_conformance_read', toolName: 'read_file', input: { file_path: join(sandbox.workspace, 'hello.txt') } },
      // One usage per model call, from the assistant line that carries it.
      { type: 'usage', inputTokens: 20, outputTokens: 7, totalTokens: 27 },
      { type: 'tool-result', toolCallId: 'call_conformance_read', toolName: 'read_file', output: 'hello\n', isError: false },
      { type: 'text', text: 'The file says hello.' },
      { type: 'usage', inputTokens: 30, outputTokens: 6, totalTokens: 36 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(turns(server)).toHaveLength(2);
    expect(messagesOf(turns(server)[1]!.body).filter((message) => message.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_conformance_read', content: [{ type: 'text', text: 'hello\n' }] },
    ]);
  });

  test('resume: the same session id, and the model sees the earlier conversation', async () => {
    const server = await connect('resume', [say('I will remember 42.', 12, 5), say('You gave me 42.', 30, 6)]);
    const first = await sandbox.query('resume', 'Remember the number 42.');
    expect(first.code, first.stderr).toBe(0);
    const session = first.events[0] as { type: 'session'; sessionId: string };
    expect(session.type).toBe('session');
    const second = await sandbox.query('resume', 'Which number did I give you?', ['--resume', session.sessionId]);
    expect(second.code, second.stderr).toBe(0);
    expect(mergeDeltas(second.events)).toEqual([
      session,
      { type: 'text', text: 'You gave me 42.' },
      { type: 'usage', inputTokens: 30, outputTokens: 6, totalTokens: 36 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const history = JSON.stringify(messagesOf(turns(server)[1]!.body));
    expect(history).toContain('Remember the number 42.');
    expect(history).toContain('I will remember 42.');
  });

  test('max turns: --max-turns 1 (--max-session-turns) stops before the second model turn with max-turns', async () => {
    const server = await connect('max-turns', [readHello('call_conformance_max', sandbox.workspace), say('Never reached.', 30, 3)]);
    const result = await sandbox.query('max-turns', 'Read hello.txt', ['--max-turns', '1']);
    // Qwen Code exits 53 without a result line; the provider reports the limit as the finish reason
    // only (no error event), so `svc query` exits 0.
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'Let me read the file.' },
      { type: 'tool-call', toolCallId: 'call_conformance_max', toolName: 'read_file', input: { file_path: join(sandbox.workspace, 'hello.txt') } },
      { type: 'usage', inputTokens: 20, outputTokens: 7, totalTokens: 27 },
      { type: 'tool-result', toolCallId: 'call_conformance_max', toolName: 'read_file', output: 'hello\n', isError: false },
      { type: 'finish', finishReason: 'max-turns' },
    ]);
    expect(turns(server)).toHaveLength(1);
  });

  test('cancel mid-stream: Ctrl-C ends svc with 130, finish cancelled, and no CLI process survives', async () => {
    const server = await connect('cancel', [{ type: 'stall', text: 'Once upon a time' }]);
    const outcome = await cancelQuery(sandbox, 'cancel', 'Write a long story.', (stdout) => turns(server).length === 1 && stdout.includes('"session"'));
    expect(outcome.code, outcome.stderr).toBe(130);
    // The launcher (`qwen`, Node 22 on cli-entry.js) and the CLI it relaunches.
    expect(outcome.tree.some((process) => process.command.includes('qwen-code'))).toBe(true);
    expect(outcome.survivors).toEqual([]);
    expect(outcome.events[0]).toEqual({ type: 'session', sessionId: expect.any(String) });
    expect(outcome.events.at(-1)).toEqual({ type: 'finish', finishReason: 'cancelled' });
    expect(outcome.events.some((event) => event.type === 'error')).toBe(false);
  });

  test('authentication failure: a 401 from the API is cli_auth_failed, never answer text', async () => {
    await connect('auth', [{ type: 'error', status: 401, message: 'Incorrect API key provided: placeholder.', code: 'invalid_api_key' }]);
    const result = await sandbox.query('auth', 'Say hello');
    expect(result.code, result.stderr).toBe(1);
    expect(result.events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'error', code: 'cli_auth_failed', message: expect.stringContaining('401') },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(result.stdout).not.toContain('[API Error');
    expect(result.stderr).toContain('error cli_auth_failed');
  });

  test('PreToolUse hook: the sample declares no hooks integration, so svc refuses to install one and changes nothing', async () => {
    // (Qwen Code itself rewrites its settings file when it runs: compare with what it holds now.)
    const settings = join(sandbox.home, '.qwen', 'settings.json');
    const before = readFileSync(settings, 'utf8');
    const result = await sandbox.svc.run(['integration', 'hooks', 'add', '--provider', ID, '--matcher', 'read_file', '--command', '/bin/false']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('error capability_unsupported');
    expect(readFileSync(settings, 'utf8')).toBe(before);
  });
});

describe('Qwen Code in a task terminal of the service (interactive, in a PTY)', () => {
  let terminals: TaskTerminals;

  beforeAll(async () => {
    // The user's settings: no update check, and no ghost-text follow-up suggestion that a lone Enter would accept.
    writeFileSync(
      join(sandbox.home, '.qwen', 'settings.json'),
      `${JSON.stringify({ privacy: { usageStatisticsEnabled: false }, general: { enableAutoUpdate: false }, ui: { enableFollowupSuggestions: false } }, null, 2)}\n`,
    );
    terminals = await startTaskTerminals(sandbox);
  });
  afterAll(async () => {
    await terminals?.close();
  });

  test('typed text is submitted as the next message, confirmed by the hook from the run settings file; the next one after the Stop hook', async () => {
    const server = await connect('tui-submit', [say('Hello from the first turn.', 20, 5), say('Hello from the second turn.', 30, 5)]);
    const taskId = await terminals.createTask('submit');
    const execution = await terminals.start(taskId, 'tui-submit');
    // Everything attaches but the permission-request hook, which Qwen Code does not have: the
    // execution says so rather than pretending its approvals are relayed.
    expect(execution.unsupportedAttachments.map((entry: any) => entry.kind)).toEqual(['permissionRequestHook']);
    const sentWith = (text: string) => turns(server).some((request) => JSON.stringify(messagesOf(request.body)).includes(text));
    const first = await terminals.submit(taskId, 'First message,\nwith a second line.');
    expect(first, plain(await terminals.screen(taskId)).slice(-3000)).toMatchObject({ status: 200, body: { confirmed: true } });
    await terminals.waitForScreen(taskId, ['Hello from the first turn.']);
    expect(sentWith('First message,\\nwith a second line.')).toBe(true);
    // The task directive reached the model with the system prompt (--append-system-prompt).
    expect(sentWith('follow the escalation ladder')).toBe(true);
    await terminals.waitForTurn(taskId, 'idle');
    const second = await terminals.submit(taskId, 'Second message.');
    expect(second).toMatchObject({ status: 200, body: { confirmed: true } });
    await terminals.waitForScreen(taskId, ['Hello from the second turn.']);
    await waitFor(() => sentWith('Second message.'), 30_000, 'the second message at the model');
    await terminals.stop(taskId);
  });
});
