// Conformance of the Claude Code provider: the real, pinned `claude` (native build) driven by the real
// `svc`, the model side the scripted Anthropic Messages server on 127.0.0.1 with a placeholder key.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  startAnthropicMessagesServer,
  type AnthropicMessagesServer,
  type ScriptedTurn,
} from '../model-servers/anthropic-messages-server.js';
import { claudeCodeSideTurns } from '../model-servers/claude-code-side-turns.js';
import { cancelQuery } from './support/cancel-query.js';
import { recordMatrixCell } from './support/client-matrix.js';
import { initializeOf, startProbeServer, type ProbeServer } from './support/mcp-probe-server.js';
import { featureCells, recordCells, slowCells } from './support/probe-cells.js';
import { startServe } from '../support/svc-serve.js';
import { createConformanceSandbox, type ConformanceSandbox } from './support/conformance-sandbox.js';
import { enableInChosenMode } from './support/isolation-args.js';
import { writeDenyHook } from './support/deny-hook.js';
import { SVC_BIN } from '../support/svc-process.js';
import { mergeDeltas } from './support/merge-deltas.js';
import { addScriptedChat, answerApprovalCalls, APPROVAL_CALLS, APPROVALS_DONE } from './support/approval-chat.js';
import { plain, startTaskTerminals, type TaskTerminals } from './support/task-terminals.js';
import { waitFor } from '../support/svc-process.js';

const ID = 'svc-official.claude-code';
const PLACEHOLDER_KEY = 'sk-ant-placeholder-not-a-real-key';
let sandbox: ConformanceSandbox;
const servers: AnthropicMessagesServer[] = [];

beforeAll(async () => {
  sandbox = createConformanceSandbox('claude-code');
  // No traffic but the model's: no telemetry, error reports or update checks from the CLI.
  sandbox.svc.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
  writeFileSync(join(sandbox.workspace, 'note.txt'), 'hello from the note\n');
  await enableInChosenMode(sandbox, ID);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  sandbox?.cleanup();
});

/** A scripted model server and a connection that points the CLI at it (`--env`, the apiKey setting, base args). */
async function connect(name: string, script: ScriptedTurn[], options: { whenExhausted?: ScriptedTurn; args?: string[] } = {}) {
  const server = await startAnthropicMessagesServer({
    script,
    sideTurns: claudeCodeSideTurns,
    ...(options.whenExhausted ? { whenExhausted: options.whenExhausted } : {}),
  });
  servers.push(server);
  const args = (options.args ?? []).map((arg) => `--arg=${arg}`);
  await sandbox.ok(['connection', 'add', name, '--provider', ID, '--env', `ANTHROPIC_BASE_URL=${server.url}`, '--set', `apiKey=${PLACEHOLDER_KEY}`, ...args]);
  return server;
}

/**
 * Claude Code connects MCP servers while the turn starts; a tool of one still connecting is refused
 * ("still connecting. Call WaitForMcpServers…"), as a busy machine sees. The script waits as a model
 * told so does (when every server is already connected the tool is not offered, and its refusal is
 * harmless).
 */
const WAIT_FOR_MCP: ScriptedTurn = { type: 'tool-use', calls: [{ id: 'toolu_conformance_wait', name: 'WaitForMcpServers', input: {} }] };
const withoutWait = (blocks: Array<Record<string, unknown>>) => blocks.filter((block) => block.tool_use_id !== 'toolu_conformance_wait');

/** The conversation requests (not the HEAD probe nor the session-title side request). */
const turns = (server: AnthropicMessagesServer) => server.requests.filter((request) => request.turn >= 0);
const messagesOf = (body: unknown) => JSON.stringify((body as { messages?: unknown }).messages ?? []);
/** The tool_result blocks a request sent back to the model. */
const toolResultsIn = (body: unknown) =>
  ((body as { messages?: Array<{ content?: unknown }> }).messages ?? [])
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : []))
    .filter((block) => block.type === 'tool_result');

describe('Claude Code through svc', () => {
  test('svc finds the pinned CLI and its version is in the provider range', async () => {
    const doctor = await sandbox.ok(['ext', 'doctor', ID]);
    expect(doctor.stdout).toContain(`cli-dependency  ${sandbox.cli.version} at ${join(sandbox.cli.binDir, 'claude')}`);
  });

  test('plain text: session, reasoning, text, usage and finish, exactly', async () => {
    const server = await connect('text', [{ type: 'text', text: 'Hello from the scripted model.', reasoning: 'The user wants a greeting.' }]);
    const result = await sandbox.query('text', 'Say hello.');
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      { type: 'reasoning', text: 'The user wants a greeting.' },
      { type: 'text', text: 'Hello from the scripted model.' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17, costUsd: expect.any(Number) },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(turns(server)).toHaveLength(1);
    expect(turns(server)[0]!.headers['x-api-key']).toBe(PLACEHOLDER_KEY);
    expect(messagesOf(turns(server)[0]!.body)).toContain('Say hello.');
  });

  test('a tool call and its result, paired by id on both sides', async () => {
    const notePath = join(sandbox.workspace, 'note.txt');
    const server = await connect('tool', [
      { type: 'tool-use', text: 'Let me read the file.', calls: [{ id: 'toolu_conformance_read', name: 'Read', input: { file_path: notePath } }] },
      { type: 'text', text: 'The note says: hello from the note.' },
    ]);
    const result = await sandbox.query('tool', 'Read note.txt and tell me what it says.');
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'Let me read the file.' },
      { type: 'tool-call', toolCallId: 'toolu_conformance_read', toolName: 'Read', input: { file_path: notePath } },
      // What the model got back: Read numbers the lines.
      { type: 'tool-result', toolCallId: 'toolu_conformance_read', toolName: 'Read', output: '1\thello from the note\n2\t' },
      { type: 'text', text: 'The note says: hello from the note.' },
      { type: 'usage', inputTokens: 24, outputTokens: 10, totalTokens: 34, costUsd: expect.any(Number) },
      { type: 'finish', finishReason: 'stop' },
    ]);
    // The CLI ran the tool and answered the model with a tool_result for the same id.
    expect(turns(server)).toHaveLength(2);
    const sent = toolResultsIn(turns(server)[1]!.body);
    expect(sent).toEqual([expect.objectContaining({ tool_use_id: 'toolu_conformance_read' })]);
    expect(JSON.stringify(sent[0]!.content)).toContain('hello from the note');
  });

  test('resume: the same session id, and the model sees the earlier conversation', async () => {
    const server = await connect('resume', [
      { type: 'text', text: 'I will remember 42.' },
      { type: 'text', text: 'You gave me 42.' },
    ]);
    const first = await sandbox.query('resume', 'Remember the number 42.');
    expect(first.code, first.stderr).toBe(0);
    const sessionId = first.events.find((event) => event.type === 'session');
    expect(sessionId).toBeDefined();
    const second = await sandbox.query('resume', 'Which number did I give you?', ['--resume', (sessionId as { sessionId: string }).sessionId]);
    expect(second.code, second.stderr).toBe(0);
    expect(mergeDeltas(second.events)).toEqual([
      sessionId,
      { type: 'text', text: 'You gave me 42.' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17, costUsd: expect.any(Number) },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const history = messagesOf(turns(server)[1]!.body);
    expect(history).toContain('Remember the number 42.');
    expect(history).toContain('I will remember 42.');
  });

  test('max turns: --max-turns 1 stops after the first tool round with max-turns', async () => {
    const server = await connect('max-turns', [
      { type: 'tool-use', calls: [{ id: 'toolu_conformance_max', name: 'Read', input: { file_path: join(sandbox.workspace, 'note.txt') } }] },
      { type: 'text', text: 'not reached' },
    ]);
    const result = await sandbox.query('max-turns', 'Read note.txt and tell me what it says.', ['--max-turns', '1']);
    expect(result.code, result.stderr).toBe(1);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'tool-call', toolCallId: 'toolu_conformance_max', toolName: 'Read', input: { file_path: join(sandbox.workspace, 'note.txt') } },
      { type: 'tool-result', toolCallId: 'toolu_conformance_max', toolName: 'Read', output: '1\thello from the note\n2\t' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17, costUsd: expect.any(Number) },
      { type: 'error', code: 'max_turns', message: 'Reached maximum number of turns (1)' },
      { type: 'finish', finishReason: 'max-turns' },
    ]);
    expect(result.stderr).toContain('error max_turns');
    expect(turns(server)).toHaveLength(1);
  });

  test('cancel mid-stream: Ctrl-C ends svc with 130, finish cancelled, and no CLI process survives', async () => {
    const server = await connect('cancel', [{ type: 'stall', text: 'Once upon a time' }]);
    const outcome = await cancelQuery(sandbox, 'cancel', 'Write a long story.', (stdout) => turns(server).length === 1 && stdout.includes('Once upon a time'));
    expect(outcome.code, outcome.stderr).toBe(130);
    expect(outcome.tree.some((process) => process.command.includes('claude'))).toBe(true);
    expect(outcome.survivors).toEqual([]);
    expect(mergeDeltas(outcome.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'Once upon a time' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });

  test('authentication failure: a 401 from the API is cli_auth_failed, without waiting for every retry', async () => {
    const server = await connect('auth', [], {
      whenExhausted: { type: 'error', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' },
    });
    const started = Date.now();
    const result = await sandbox.query('auth', 'Say hello.');
    expect(result.code, result.stderr).toBe(1);
    expect(result.events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'error', code: 'cli_auth_failed', message: expect.stringContaining('HTTP 401') },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(result.stderr).toContain('error cli_auth_failed');
    expect(result.stdout + result.stderr).not.toContain(PLACEHOLDER_KEY);
    // Claude Code alone retries a 401 ten times (about 2.5 minutes); the provider stops at the second.
    expect(Date.now() - started).toBeLessThan(60_000);
    // Each attempt got the scripted 401 (the script is empty, so none of them is a numbered turn).
    expect(server.requests.filter((request) => request.method === 'POST' && request.turn === -1).length).toBeGreaterThanOrEqual(2);
  });

  test('a PreToolUse hook installed with `svc integration hooks add` denies a tool: it does not run, and the model sees why', async () => {
    const marker = join(sandbox.workspace, 'made-by-the-tool.txt');
    const reason = 'Blocked by the svc conformance hook';
    const hook = writeDenyHook(sandbox.home, {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    });
    await sandbox.ok(['integration', 'hooks', 'add', '--provider', ID, '--matcher', 'Bash', '--command', hook.command]);
    expect(readFileSync(join(sandbox.home, '.claude', 'settings.json'), 'utf8')).toContain(hook.command);
    // Bash is allowed outright, so only the hook can stop the command.
    const server = await connect(
      'hook',
      [
        { type: 'tool-use', calls: [{ id: 'toolu_conformance_bash', name: 'Bash', input: { command: `touch ${marker}`, description: 'Create a file' } }] },
        { type: 'text', text: 'The hook blocked the command.' },
      ],
      { args: ['--allowedTools', 'Bash'] },
    );
    const result = await sandbox.query('hook', 'Create the file.');
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(hook.calls()).toEqual([expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: expect.objectContaining({ command: `touch ${marker}` }) })]);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'tool-call', toolCallId: 'toolu_conformance_bash', toolName: 'Bash', input: { command: `touch ${marker}`, description: 'Create a file' } },
      { type: 'tool-result', toolCallId: 'toolu_conformance_bash', toolName: 'Bash', output: reason, isError: true },
      { type: 'text', text: 'The hook blocked the command.' },
      { type: 'usage', inputTokens: 24, outputTokens: 10, totalTokens: 34, costUsd: expect.any(Number) },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(toolResultsIn(turns(server)[1]!.body)).toEqual([
      expect.objectContaining({ tool_use_id: 'toolu_conformance_bash', is_error: true, content: expect.stringContaining(reason) }),
    ]);
    await sandbox.ok(['integration', 'hooks', 'remove', '--provider', ID, '--matcher', 'Bash', '--command', hook.command]);
    expect(existsSync(join(sandbox.home, '.claude', 'settings.json'))).toBe(false);
  });

  test('svc mcp added with `claude mcp add` as a user does: the tool the model asks for runs and its result reaches the model', async () => {
    await sandbox.ok(['workspace', 'create', 'conformance-ws']);
    const added = execFileSync(
      join(sandbox.cli.binDir, 'claude'),
      ['mcp', 'add', '-s', 'user', 'svc', '-e', `SVC_HOME=${sandbox.svc.home}`, '-e', 'SVC_MCP_PROFILE=assistant', '--', process.execPath, SVC_BIN, 'mcp'],
      { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' },
    );
    expect(added).toContain('Added stdio MCP server svc');
    const server = await connect(
      'svc-mcp',
      [
        WAIT_FOR_MCP,
        { type: 'tool-use', calls: [{ id: 'toolu_conformance_svc', name: 'mcp__svc__list_workspaces', input: {} }] },
        { type: 'text', text: 'You have one workspace.' },
      ],
      { args: ['--allowedTools', 'mcp__svc__list_workspaces'] },
    );
    const result = await sandbox.query('svc-mcp', 'Which workspaces do I have in svc?');
    expect(result.code, result.stderr).toBe(0);
    // The CLI called the svc tool the model asked for and sent its result back. (Whether the first
    // request already lists svc's tools depends on how fast the server connected: not asserted.)
    const sent = withoutWait(toolResultsIn(turns(server)[2]!.body));
    expect(sent).toEqual([expect.objectContaining({ tool_use_id: 'toolu_conformance_svc' })]);
    expect(sent[0]!.is_error).not.toBe(true);
    expect(JSON.stringify(sent[0]!.content)).toContain('conformance-ws');
    expect(mergeDeltas(result.events)).toContainEqual({ type: 'text', text: 'You have one workspace.' });
    recordMatrixCell({ client: 'Claude Code', version: sandbox.cli.version, feature: 'stdio', honoured: true, evidence: 'list_workspaces called over stdio; its result reached the model', test: 'claude-code: svc mcp added with `claude mcp add`' });
  });

  test('/mcp of svc serve added with `claude mcp add --transport http` and a bearer token: the tool runs and its result reaches the model', async () => {
    const serve = await startServe(sandbox.svc);
    try {
      const token = (await sandbox.ok(['mcp', 'token', 'create', 'claude-http', '--profile', 'assistant'])).stdout.trim();
      const added = execFileSync(
        join(sandbox.cli.binDir, 'claude'),
        ['mcp', 'add', '-s', 'user', '--transport', 'http', 'svchttp', `${serve.url}/mcp`, '--header', `Authorization: Bearer ${token}`],
        { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' },
      );
      expect(added).toContain('Added HTTP MCP server svchttp');
      const server = await connect(
        'svc-mcp-http',
        [
          WAIT_FOR_MCP,
          { type: 'tool-use', calls: [{ id: 'toolu_conformance_http', name: 'mcp__svchttp__list_workspaces', input: {} }] },
          { type: 'text', text: 'Listed over HTTP.' },
        ],
        { args: ['--allowedTools', 'mcp__svchttp__list_workspaces'] },
      );
      const result = await sandbox.query('svc-mcp-http', 'Which workspaces do I have in svc (over HTTP)?');
      expect(result.code, result.stderr).toBe(0);
      const sent = withoutWait(toolResultsIn(turns(server)[2]!.body));
      expect(sent).toEqual([expect.objectContaining({ tool_use_id: 'toolu_conformance_http' })]);
      expect(sent[0]!.is_error).not.toBe(true);
      expect(JSON.stringify(sent[0]!.content)).toContain('conformance-ws');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    recordMatrixCell({ client: 'Claude Code', version: sandbox.cli.version, feature: 'http', honoured: true, evidence: 'list_workspaces called over Streamable HTTP with a bearer token; its result reached the model', test: 'claude-code: /mcp added with `claude mcp add --transport http`' });
  });

  describe('what Claude Code does with MCP features (a probe server, for the client matrix)', () => {
    let probe: ProbeServer;
    const probeTool = (name: string) => `mcp__probe__${name}`;
    const who = (test: string) => ({ client: 'Claude Code', version: sandbox.cli.version, test: `claude-code: ${test}` });

    beforeAll(async () => {
      probe = await startProbeServer();
      execFileSync(join(sandbox.cli.binDir, 'claude'), ['mcp', 'add', '-s', 'user', '--transport', 'http', 'probe', probe.url], { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' });
    });
    afterAll(async () => {
      execFileSync(join(sandbox.cli.binDir, 'claude'), ['mcp', 'remove', '-s', 'user', 'probe'], { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' });
      await probe?.close();
    });

    test('structuredContent, resource links, annotations, elicitation and listChanged, as the client handles them', async () => {
      const allowed = ['probe_structured', 'probe_link', 'probe_elicit', 'probe_change', 'probe_added'].map(probeTool).join(',');
      const server = await connect(
        'probe-features',
        [
          WAIT_FOR_MCP,
          {
            type: 'tool-use',
            calls: ['probe_structured', 'probe_link', 'probe_elicit', 'probe_read', 'probe_delete'].map((name, index) => ({ id: `toolu_probe_${index}`, name: probeTool(name), input: {} })),
          },
          { type: 'tool-use', calls: [{ id: 'toolu_probe_change', name: probeTool('probe_change'), input: {} }] },
          { type: 'text', text: 'Probed.' },
        ],
        { args: ['--allowedTools', allowed] },
      );
      const result = await sandbox.query('probe-features', 'Probe the MCP features.');
      expect(result.code, result.stderr).toBe(0);
      expect(initializeOf(probe)).toBeDefined();
      expect(turns(server)).toHaveLength(4);
      // The allowed tools ran; each answer went back to the model for the same id.
      expect(probe.calls('probe_structured')).toHaveLength(1);
      expect(probe.calls('probe_change')).toHaveLength(1);
      expect(withoutWait(toolResultsIn(turns(server)[2]!.body)).map((block) => block.tool_use_id)).toEqual([0, 1, 2, 3, 4].map((index) => `toolu_probe_${index}`));
      const later = JSON.stringify(turns(server).slice(2).map((request) => request.body));
      const offered = JSON.stringify(turns(server).map((request) => (request.body as { tools?: unknown }).tools));
      recordCells(who('probe tools called from a scripted turn'), featureCells(probe, later, offered));
    });

    test('progress and cancellation: Ctrl-C while an MCP tool call runs', async () => {
      const server = await connect('probe-slow', [WAIT_FOR_MCP, { type: 'tool-use', calls: [{ id: 'toolu_probe_slow', name: probeTool('probe_slow'), input: {} }] }, { type: 'text', text: 'not reached' }], {
        args: ['--allowedTools', probeTool('probe_slow')],
      });
      const outcome = await cancelQuery(sandbox, 'probe-slow', 'Run the slow probe.', () => probe.calls('probe_slow').length === 1);
      expect(outcome.code, outcome.stderr).toBe(130);
      expect(turns(server)).toHaveLength(2);
      const call = probe.calls('probe_slow')[0]!;
      // A notifications/cancelled, if the client sends one, comes before it goes.
      await waitFor(() => probe.messages.some((message) => message.method === 'notifications/cancelled'), 3_000, 'a cancellation').catch(() => undefined);
      recordCells(who('Ctrl-C while probe_slow ran'), slowCells(probe, call));
    });
  });
});

describe('Claude Code in a task terminal of the service (interactive, in a PTY)', () => {
  let terminals: TaskTerminals;
  const QUESTION = {
    questions: [
      { question: 'Which colour should the button be?', header: 'Colour', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }], multiSelect: false },
    ],
  };

  beforeAll(async () => {
    // What a person's first run leaves behind (onboarding done, the key approved, the folder
    // trusted) in the sandbox HOME, so no first-start dialog takes the keyboard; as root the
    // skip-permissions mode needs its confirmation skipped too.
    writeFileSync(
      join(sandbox.home, '.claude.json'),
      JSON.stringify({
        hasCompletedOnboarding: true,
        customApiKeyResponses: { approved: [PLACEHOLDER_KEY.slice(-20)], rejected: [] },
        projects: { [sandbox.workspace]: { hasTrustDialogAccepted: true } },
      }),
    );
    mkdirSync(join(sandbox.home, '.claude'), { recursive: true });
    writeFileSync(join(sandbox.home, '.claude', 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true }));
    // As root, Claude Code refuses --dangerously-skip-permissions outside a sandbox it knows of.
    sandbox.svc.env.IS_SANDBOX = '1';
    await addScriptedChat(sandbox);
    terminals = await startTaskTerminals(sandbox);
  });
  afterAll(async () => {
    await terminals?.close();
  });

  /** A task terminal whose model asks AskUserQuestion after the first message, then answers plainly. */
  async function askingTerminal(name: string, task: { parentTaskId?: number; unattended?: boolean }, args: string[] = []) {
    const server = await connect(name, [{ type: 'tool-use', calls: [{ id: `toolu_${name.replace(/-/g, '_')}`, name: 'AskUserQuestion', input: QUESTION }] }, { type: 'text', text: 'I will go on without asking.' }], {
      whenExhausted: { type: 'text', text: 'Nothing more.' },
      args,
    });
    const taskId = await terminals.createTask(name, task);
    const execution = await terminals.start(taskId, name);
    expect(execution.unsupportedAttachments).toEqual([]);
    const submitted = await terminals.submit(taskId, 'Ask me which colour the button should be.');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    // The CLI's UserPromptSubmit hook confirmed the message.
    expect(submitted.body, plain(await terminals.screen(taskId)).slice(-3000)).toMatchObject({ confirmed: true });
    return { server, taskId };
  }

  const deniedResult = (server: AnthropicMessagesServer) => turns(server).flatMap((request) => toolResultsIn(request.body));

  test('typed text is submitted as the next message, confirmed by the hook; the turn end comes back through the Stop hook', async () => {
    const server = await connect('submit', [{ type: 'text', text: 'Hello from the first turn.' }, { type: 'text', text: 'Hello from the second turn.' }]);
    const taskId = await terminals.createTask('submit');
    await terminals.start(taskId, 'submit');
    const first = await terminals.submit(taskId, 'First message,\nwith a second line.');
    expect(first, plain(await terminals.screen(taskId)).slice(-3000)).toMatchObject({ status: 200, body: { confirmed: true } });
    await terminals.waitForScreen(taskId, ['Hello from the first turn.']);
    await terminals.waitForTurn(taskId, 'idle');
    const second = await terminals.submit(taskId, 'Second message.');
    expect(second).toMatchObject({ status: 200, body: { confirmed: true } });
    await terminals.waitForScreen(taskId, ['Hello from the second turn.']);
    expect(messagesOf(turns(server)[0]!.body)).toContain('First message,\\nwith a second line.');
    // The task directive reached the model as part of its system prompt (--append-system-prompt).
    expect(JSON.stringify((turns(server)[0]!.body as { system?: unknown }).system)).toContain('follow the escalation ladder');
    expect(messagesOf(turns(server)[1]!.body)).toContain('Second message.');
    await terminals.stop(taskId);
  });

  test('unattended, no parent: AskUserQuestion is denied by the ladder hook and the model is told to use ask_human', async () => {
    const { server, taskId } = await askingTerminal('ladder-unattended', { unattended: true });
    await waitFor(() => deniedResult(server).length > 0, 60_000, 'the tool result');
    expect(deniedResult(server)).toEqual([expect.objectContaining({ tool_use_id: 'toolu_ladder_unattended', is_error: true, content: expect.stringContaining('ask_human') })]);
    await terminals.waitForScreen(taskId, ['I will go on without asking.']);
    await terminals.stop(taskId);
  });

  test('watched, no parent: AskUserQuestion is allowed and its menu opens for the person', async () => {
    const { server, taskId } = await askingTerminal('ladder-watched', {});
    await terminals.waitForScreen(taskId, ['Which colour should the button be?', 'Red', 'warm', 'Blue', 'cool']);
    // The menu waits for the person: nothing went back to the model.
    expect(deniedResult(server)).toEqual([]);
    await terminals.stop(taskId);
  });

  test('a child task, even watched: denied, steering to end the turn with the blocker for the parent', async () => {
    const parent = await terminals.createTask('the parent');
    const { server } = await askingTerminal('ladder-child', { parentTaskId: parent });
    await waitFor(() => deniedResult(server).length > 0, 60_000, 'the tool result');
    expect(deniedResult(server)).toEqual([expect.objectContaining({ is_error: true, content: expect.stringContaining('End your turn with the blocker') })]);
  });

  test('under --dangerously-skip-permissions, unattended: still denied by the hook', async () => {
    const { server, taskId } = await askingTerminal('ladder-bypass', { unattended: true }, ['--dangerously-skip-permissions']);
    await waitFor(() => deniedResult(server).length > 0, 60_000, 'the tool result');
    expect(deniedResult(server)).toEqual([expect.objectContaining({ is_error: true, content: expect.stringContaining('ask_human') })]);
    await terminals.stop(taskId);
  });

  test('unattended: a Bash permission request is relayed to the chat; a reply allows it once, a deny reaches the model, a task rule lets the identical call through, a changed command asks again', async () => {
    const server = await connect('approvals', [
      ...APPROVAL_CALLS.map(([step, command]): ScriptedTurn => ({ type: 'tool-use', calls: [{ id: `toolu_${step}`, name: 'Bash', input: { command, description: 'Record a line' } }] })),
      { type: 'text', text: APPROVALS_DONE },
    ], { whenExhausted: { type: 'text', text: 'Nothing more.' } });
    const taskId = await terminals.createTask('approvals', { unattended: true });
    await terminals.start(taskId, 'approvals');
    const submitted = await terminals.submit(taskId, 'Record the lines.');
    expect(submitted.body, submitted.screen).toMatchObject({ confirmed: true });
    await answerApprovalCalls(sandbox, terminals, taskId, (step) =>
      waitFor(() => turns(server).flatMap((request) => toolResultsIn(request.body)).find((block) => block.tool_use_id === `toolu_${step}`), 60_000, `the result of ${step}`),
    );
    await terminals.stop(taskId);
  });
});
