// Conformance of the Gemini CLI provider: the real, pinned `gemini` driven by the real `svc`, the model
// side the scripted Gemini API server on 127.0.0.1, reached through GOOGLE_GEMINI_BASE_URL (the
// connection's environment) with a placeholder key (the provider's apiKey setting).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  startGeminiGenerateServer,
  type GeminiGenerateServer,
  type GeminiScriptedTurn,
} from '../model-servers/gemini-generate-server.js';
import { cancelQuery } from './support/cancel-query.js';
import { createConformanceSandbox, type ConformanceSandbox } from './support/conformance-sandbox.js';
import { enableInChosenMode } from './support/isolation-args.js';
import { writeDenyHook } from './support/deny-hook.js';
import { mergeDeltas } from './support/merge-deltas.js';
import { SVC_BIN } from '../support/svc-process.js';

import { recordMatrixCell } from './support/client-matrix.js';
import { initializeOf, startProbeServer, type ProbeServer } from './support/mcp-probe-server.js';
import { featureCells, recordCells, slowCells } from './support/probe-cells.js';
import { startServe } from '../support/svc-serve.js';
import { plain, startTaskTerminals, type TaskTerminals } from './support/task-terminals.js';
import { waitFor } from '../support/svc-process.js';
const ID = 'svc-official.gemini-cli';
const PLACEHOLDER_KEY = 'AIza-placeholder-not-a-real-key';
const MODEL = 'gemini-2.5-flash';
// With a base URL and no selected auth type the CLI picks its "gateway" auth and refuses it headless:
// the user's own settings name the API-key auth (the provider never writes them), and turn usage
// statistics off: no traffic but the model's.
const USER_SETTINGS = { security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } };
let sandbox: ConformanceSandbox;
let settingsFile: string;
const servers: GeminiGenerateServer[] = [];

beforeAll(async () => {
  sandbox = createConformanceSandbox('gemini-cli');
  writeFileSync(join(sandbox.workspace, 'notes.txt'), 'alpha beta\n');
  mkdirSync(join(sandbox.home, '.gemini'));
  settingsFile = join(sandbox.home, '.gemini', 'settings.json');
  writeUserSettings(USER_SETTINGS);
  await enableInChosenMode(sandbox, ID);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  sandbox?.cleanup();
});

function writeUserSettings(settings: unknown): void {
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
}

async function connect(name: string, script: GeminiScriptedTurn[], settings: string[] = []) {
  const server = await startGeminiGenerateServer({ script });
  servers.push(server);
  await sandbox.ok([
    'connection', 'add', name, '--provider', ID,
    '--env', `GOOGLE_GEMINI_BASE_URL=${server.url}`,
    '--set', `apiKey=${PLACEHOLDER_KEY}`, '--set', 'trustWorkspace=true', '--set', `model=${MODEL}`,
    ...settings.flatMap((setting) => ['--set', setting]),
  ]);
  return server;
}

/** The generate requests (not countTokens). */
const turns = (server: GeminiGenerateServer) => server.requests.filter((request) => request.action.endsWith('enerateContent'));
type Part = { text?: string; functionCall?: { id?: string; name: string }; functionResponse?: { id?: string; name: string; response: unknown } };
const partsOf = (body: unknown) => ((body as { contents?: Array<{ parts?: Part[] }> }).contents ?? []).flatMap((content) => content.parts ?? []);
const hostLog = () => readFileSync(join(sandbox.svc.home, 'logs', 'svc.log'), 'utf8');
const READ_NOTES: GeminiScriptedTurn = { type: 'function-calls', text: 'Let me read the file.', calls: [{ name: 'read_file', args: { file_path: 'notes.txt' } }] };

describe('Gemini CLI through svc', () => {
  test('svc finds the pinned CLI and its version is in the provider range', async () => {
    const doctor = await sandbox.ok(['ext', 'doctor', ID]);
    expect(doctor.stdout).toContain(`cli-dependency  ${sandbox.cli.version} at ${join(sandbox.cli.binDir, 'gemini')}`);
  });

  test('plain text: session, text, usage and finish, exactly (the CLI prints no thoughts)', async () => {
    const server = await connect('text', [{ type: 'text', thought: 'The user wants a greeting.', text: 'Hello from the scripted model.' }]);
    const result = await sandbox.query('text', 'Say hello.');
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      { type: 'text', text: 'Hello from the scripted model.' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(turns(server)).toHaveLength(1);
    expect(turns(server)[0]!.headers['x-goog-api-key']).toBe(PLACEHOLDER_KEY);
    expect(partsOf(turns(server)[0]!.body).at(-1)).toEqual({ text: 'Say hello.' });
  });

  test('a tool call and its result, paired by id on both sides', async () => {
    const server = await connect('tool', [
      READ_NOTES,
      { type: 'text', text: 'The file says: alpha beta.', usage: { promptTokens: 40, candidatesTokens: 7 } },
    ]);
    const result = await sandbox.query('tool', 'Read notes.txt and tell me what it says.');
    expect(result.code, result.stderr).toBe(0);
    const events = mergeDeltas(result.events);
    expect(events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'Let me read the file.' },
      { type: 'tool-call', toolCallId: expect.stringContaining('read_file'), toolName: 'read_file', input: { file_path: 'notes.txt' } },
      // The CLI's display string: empty for a successful read_file (the content goes to the model).
      { type: 'tool-result', toolCallId: expect.stringContaining('read_file'), toolName: 'read_file', output: '', isError: false },
      { type: 'text', text: 'The file says: alpha beta.' },
      { type: 'usage', inputTokens: 52, outputTokens: 12, totalTokens: 64 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const callId = (events[2] as { toolCallId: string }).toolCallId;
    expect((events[3] as { toolCallId: string }).toolCallId).toBe(callId);
    const sent = partsOf(turns(server)[1]!.body);
    const call = sent.find((part) => part.functionCall)!.functionCall!;
    const response = sent.find((part) => part.functionResponse)!.functionResponse!;
    expect(response).toMatchObject({ id: call.id, name: 'read_file' });
    expect(callId.endsWith(call.id!)).toBe(true);
    expect(JSON.stringify(response.response)).toContain('alpha beta');
  });

  test('resume: -r keeps the session id, and the model sees the earlier conversation', async () => {
    const server = await connect('resume', [
      { type: 'text', text: 'I will remember 42.' },
      { type: 'text', text: 'You gave me 42.' },
    ]);
    const first = await sandbox.query('resume', 'Remember the number 42.');
    expect(first.code, first.stderr).toBe(0);
    const session = first.events[0] as { type: 'session'; sessionId: string };
    expect(session.type).toBe('session');
    const second = await sandbox.query('resume', 'Which number did I give you?', ['--resume', session.sessionId]);
    expect(second.code, second.stderr).toBe(0);
    expect(mergeDeltas(second.events)).toEqual([
      session,
      { type: 'text', text: 'You gave me 42.' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const history = JSON.stringify(partsOf(turns(server)[1]!.body));
    expect(history).toContain('Remember the number 42.');
    expect(history).toContain('I will remember 42.');
  });

  test('max turns: the CLI has no flag, so --max-turns is not applied and the host log says so', async () => {
    const server = await connect('max-turns-flag', [READ_NOTES, { type: 'text', text: 'Both turns ran.' }]);
    const result = await sandbox.query('max-turns-flag', 'Read notes.txt.', ['--max-turns', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'Let me read the file.' },
      { type: 'tool-call', toolCallId: expect.any(String), toolName: 'read_file', input: { file_path: 'notes.txt' } },
      { type: 'tool-result', toolCallId: expect.any(String), toolName: 'read_file', output: '', isError: false },
      { type: 'text', text: 'Both turns ran.' },
      { type: 'usage', inputTokens: 24, outputTokens: 10, totalTokens: 34 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(turns(server)).toHaveLength(2);
    expect(hostLog()).toContain('maxTurns 1 was not applied');
  });

  test("max turns: the CLI's own limit (model.maxSessionTurns in its settings) ends the run with max-turns", async () => {
    writeUserSettings({ ...USER_SETTINGS, model: { maxSessionTurns: 1 } });
    try {
      const server = await connect('max-turns', [READ_NOTES, { type: 'text', text: 'not reached' }]);
      const result = await sandbox.query('max-turns', 'Read notes.txt.');
      expect(result.code, result.stderr).toBe(1);
      expect(mergeDeltas(result.events)).toEqual([
        { type: 'session', sessionId: expect.any(String) },
        { type: 'text', text: 'Let me read the file.' },
        { type: 'tool-call', toolCallId: expect.any(String), toolName: 'read_file', input: { file_path: 'notes.txt' } },
        { type: 'tool-result', toolCallId: expect.any(String), toolName: 'read_file', output: '', isError: false },
        { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
        { type: 'error', code: 'max_turns', message: expect.stringContaining('max session turns') },
        { type: 'finish', finishReason: 'max-turns' },
      ]);
      expect(turns(server)).toHaveLength(1);
    } finally {
      writeUserSettings(USER_SETTINGS);
    }
  });

  test('cancel mid-stream: Ctrl-C ends svc with 130, finish cancelled, and no CLI process survives', async () => {
    // The first 16 characters now, the rest after 20 s: a model gone quiet mid-answer.
    const server = await connect('cancel', [{ type: 'text', text: 'Once upon a time, in a long story.', chunkDelayMs: 20_000 }]);
    const outcome = await cancelQuery(sandbox, 'cancel', 'Write a long story.', (stdout) => turns(server).length === 1 && stdout.includes('Once upon a time'));
    expect(outcome.code, outcome.stderr).toBe(130);
    // The launcher ignores SIGINT/SIGTERM and relaunches the CLI as its child: the whole tree must go.
    expect(outcome.tree.filter((process) => process.command.includes('gemini')).length).toBeGreaterThanOrEqual(2);
    expect(outcome.survivors).toEqual([]);
    expect(mergeDeltas(outcome.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'Once upon a time' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });

  test('authentication failure: an API_KEY_INVALID answer is cli_auth_failed', async () => {
    await connect('auth', [
      { type: 'error', status: 400, message: 'API key not valid. Please pass a valid API key.', apiStatus: 'INVALID_ARGUMENT', reason: 'API_KEY_INVALID' },
    ]);
    const result = await sandbox.query('auth', 'Say hello.');
    expect(result.code, result.stderr).toBe(1);
    // The CLI's result line still carries (zero) stats, which become a usage event.
    expect(result.events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'usage', inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      { type: 'error', code: 'cli_auth_failed', message: expect.stringContaining('API key not valid') },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(result.stderr).toContain('error cli_auth_failed');
    expect(result.stdout + result.stderr).not.toContain(PLACEHOLDER_KEY);
  });

  test('a PreToolUse (BeforeTool) hook installed with `svc integration hooks add` denies a tool: it does not run, and the model sees why', async () => {
    const reason = 'Blocked by the svc conformance hook';
    const hook = writeDenyHook(sandbox.home, { decision: 'deny', reason });
    await sandbox.ok(['integration', 'hooks', 'add', '--provider', ID, '--matcher', 'write_file', '--command', hook.command]);
    expect(readFileSync(settingsFile, 'utf8')).toContain(hook.command);
    // yolo approves every tool, so only the hook can stop the write.
    const server = await connect(
      'hook',
      [
        { type: 'function-calls', calls: [{ name: 'write_file', args: { file_path: 'made-by-the-tool.txt', content: 'x' } }] },
        { type: 'text', text: 'The hook blocked the write.' },
      ],
      ['approvalMode=yolo'],
    );
    const result = await sandbox.query('hook', 'Create the file.');
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(sandbox.workspace, 'made-by-the-tool.txt'))).toBe(false);
    expect(hook.calls()).toEqual([
      expect.objectContaining({ hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: 'made-by-the-tool.txt', content: 'x' } }),
    ]);
    const events = mergeDeltas(result.events);
    expect(events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'tool-call', toolCallId: expect.any(String), toolName: 'write_file', input: { file_path: 'made-by-the-tool.txt', content: 'x' } },
      { type: 'tool-result', toolCallId: expect.any(String), toolName: 'write_file', output: `Tool execution blocked: ${reason}`, isError: true },
      { type: 'text', text: 'The hook blocked the write.' },
      { type: 'usage', inputTokens: 24, outputTokens: 10, totalTokens: 34 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect((events[2] as { toolCallId: string }).toolCallId).toBe((events[1] as { toolCallId: string }).toolCallId);
    expect(partsOf(turns(server)[1]!.body).find((part) => part.functionResponse)?.functionResponse).toMatchObject({
      name: 'write_file',
      response: { error: `Tool execution blocked: ${reason}` },
    });
    await sandbox.ok(['integration', 'hooks', 'remove', '--provider', ID, '--matcher', 'write_file', '--command', hook.command]);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(USER_SETTINGS);
  });

  test('svc mcp added with `gemini mcp add` as a user does: the tool the model asks for runs and its result reaches the model', async () => {
    await sandbox.ok(['workspace', 'create', 'conformance-ws']);
    execFileSync(
      join(sandbox.cli.binDir, 'gemini'),
      ['mcp', 'add', '-s', 'user', '--trust', 'svc', process.execPath, SVC_BIN, 'mcp', '-e', `SVC_HOME=${sandbox.svc.home}`, '-e', 'SVC_MCP_PROFILE=assistant'],
      // The CLI reports "MCP server "svc" added to user settings. (stdio)" on stderr.
      { env: sandbox.svc.env, cwd: sandbox.workspace, stdio: 'ignore' },
    );
    expect(JSON.parse(readFileSync(settingsFile, 'utf8')).mcpServers.svc).toMatchObject({ command: process.execPath, args: [SVC_BIN, 'mcp'], trust: true });
    const server = await connect('svc-mcp', [
      { type: 'function-calls', calls: [{ name: 'mcp_svc_list_workspaces', args: {} }] },
      { type: 'text', text: 'You have one workspace.' },
    ]);
    const result = await sandbox.query('svc-mcp', 'Which workspaces do I have in svc?');
    expect(result.code, result.stderr).toBe(0);
    const offered = JSON.stringify((turns(server)[0]!.body as { tools?: unknown }).tools);
    expect(offered).toContain('mcp_svc_list_workspaces');
    // Profile assistant: no messaging or gateway tools are offered.
    expect(offered).not.toContain('mcp_svc_ask_human');
    const response = partsOf(turns(server)[1]!.body).find((part) => part.functionResponse)!.functionResponse!;
    expect(response.name).toBe('mcp_svc_list_workspaces');
    expect(JSON.stringify(response.response)).toContain('conformance-ws');
    expect(mergeDeltas(result.events)).toContainEqual({ type: 'text', text: 'You have one workspace.' });
    recordMatrixCell({ client: 'Gemini CLI', version: sandbox.cli.version, feature: 'stdio', honoured: true, evidence: 'mcp_svc_list_workspaces offered and called over stdio; its result reached the model', test: 'gemini-cli: svc mcp added with `gemini mcp add`' });
  });

  test('/mcp of svc serve added with `gemini mcp add --transport http` and a bearer token header: the tool runs and its result reaches the model', async () => {
    const serve = await startServe(sandbox.svc);
    const gemini = (args: string[]) => execFileSync(join(sandbox.cli.binDir, 'gemini'), args, { env: sandbox.svc.env, cwd: sandbox.workspace, stdio: 'ignore' });
    try {
      await sandbox.ok(['workspace', 'create', 'conformance-http-ws']);
      const token = (await sandbox.ok(['mcp', 'token', 'create', 'gemini-http', '--profile', 'assistant'])).stdout.trim();
      gemini(['mcp', 'add', '-s', 'user', '--trust', '--transport', 'http', 'svchttp', `${serve.url}/mcp`, '-H', `Authorization: Bearer ${token}`]);
      const entry = JSON.parse(readFileSync(settingsFile, 'utf8')).mcpServers.svchttp;
      expect(entry).toMatchObject({ trust: true });
      expect(JSON.stringify(entry)).toContain(`${serve.url}/mcp`);
      const server = await connect('svc-mcp-http', [
        { type: 'function-calls', calls: [{ name: 'mcp_svchttp_list_workspaces', args: {} }] },
        { type: 'text', text: 'Listed over HTTP.' },
      ]);
      const result = await sandbox.query('svc-mcp-http', 'Which workspaces do I have in svc (over HTTP)?');
      expect(result.code, result.stderr).toBe(0);
      const response = partsOf(turns(server)[1]!.body).find((part) => part.functionResponse)!.functionResponse!;
      expect(response.name).toBe('mcp_svchttp_list_workspaces');
      expect(JSON.stringify(response.response)).toContain('conformance-http-ws');
      expect(result.stdout + result.stderr).not.toContain(token);
    } finally {
      gemini(['mcp', 'remove', '-s', 'user', 'svchttp']);
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    recordMatrixCell({ client: 'Gemini CLI', version: sandbox.cli.version, feature: 'http', honoured: true, evidence: 'mcp_svchttp_list_workspaces called over Streamable HTTP with a bearer token header; its result reached the model', test: 'gemini-cli: /mcp added with `gemini mcp add --transport http`' });
  });

  describe('what Gemini CLI does with MCP features (a probe server, for the client matrix)', () => {
    let probe: ProbeServer;
    const gemini = (args: string[]) => execFileSync(join(sandbox.cli.binDir, 'gemini'), args, { env: sandbox.svc.env, cwd: sandbox.workspace, stdio: 'ignore' });
    const who = (test: string) => ({ client: 'Gemini CLI', version: sandbox.cli.version, test: `gemini-cli: ${test}` });

    beforeAll(async () => {
      probe = await startProbeServer();
      // Trusted, the tools that probe other features run headless; the annotated pair comes through a
      // second, untrusted entry for the same server, where only the client's own rules decide.
      gemini(['mcp', 'add', '-s', 'user', '--trust', '--transport', 'http', 'probe', probe.url, '--exclude-tools', 'probe_read,probe_delete']);
      gemini(['mcp', 'add', '-s', 'user', '--transport', 'http', 'hints', probe.url, '--include-tools', 'probe_read,probe_delete']);
    });
    afterAll(async () => {
      gemini(['mcp', 'remove', '-s', 'user', 'probe']);
      gemini(['mcp', 'remove', '-s', 'user', 'hints']);
      await probe?.close();
    });

    test('structuredContent, resource links, annotations, elicitation and listChanged, as the client handles them', async () => {
      const server = await connect('probe-features', [
        {
          type: 'function-calls',
          calls: [
            ...['probe_structured', 'probe_link', 'probe_elicit'].map((name) => ({ name: `mcp_probe_${name}`, args: {} })),
            ...['probe_read', 'probe_delete'].map((name) => ({ name: `mcp_hints_${name}`, args: {} })),
          ],
        },
        { type: 'function-calls', calls: [{ name: 'mcp_probe_probe_change', args: {} }] },
        { type: 'text', text: 'Probed.' },
      ]);
      const result = await sandbox.query('probe-features', 'Probe the MCP features.');
      expect(result.code, result.stderr).toBe(0);
      expect(initializeOf(probe)).toBeDefined();
      expect(turns(server)).toHaveLength(3);
      expect(probe.calls('probe_structured')).toHaveLength(1);
      expect(probe.calls('probe_change')).toHaveLength(1);
      const later = JSON.stringify(turns(server).slice(1).map((request) => request.body));
      const offered = JSON.stringify(turns(server).map((request) => (request.body as { tools?: unknown }).tools));
      recordCells(who('probe tools called from a scripted turn'), featureCells(probe, later, offered));
    });

    test('progress and cancellation: Ctrl-C while an MCP tool call runs', async () => {
      const server = await connect('probe-slow', [{ type: 'function-calls', calls: [{ name: 'mcp_probe_probe_slow', args: {} }] }, { type: 'text', text: 'not reached' }]);
      const outcome = await cancelQuery(sandbox, 'probe-slow', 'Run the slow probe.', () => probe.calls('probe_slow').length === 1);
      expect(outcome.code, outcome.stderr).toBe(130);
      expect(turns(server)).toHaveLength(1);
      const slow = probe.calls('probe_slow')[0]!;
      await waitFor(() => probe.messages.some((message) => message.method === 'notifications/cancelled'), 3_000, 'a cancellation').catch(() => undefined);
      recordCells(who('Ctrl-C while probe_slow ran'), slowCells(probe, slow));
    });
  });
});

describe('Gemini CLI in a task terminal of the service (interactive, in a PTY)', () => {
  let terminals: TaskTerminals;

  beforeAll(async () => {
    // The user's settings as after a first run: API-key auth chosen, no update checks; the folder is
    // trusted per run (the provider's trustWorkspace setting), so no dialog takes the keyboard.
    writeUserSettings({ ...USER_SETTINGS, general: { enableAutoUpdate: false, enableAutoUpdateNotification: false } });
    sandbox.svc.env.COLORTERM = 'truecolor';
    // As on a CI machine: Gemini CLI turns headless on CI=true, so the terminal must not pass it on.
    sandbox.svc.env.CI = 'true';
    terminals = await startTaskTerminals(sandbox);
  });
  afterAll(async () => {
    await terminals?.close();
  });

  test('typed text is submitted as the next message, twice, in the same live terminal', async () => {
    // Every request gets the server's answer once the (empty) script is used up, whatever side requests the TUI makes.
    const server = await connect('tui-submit', []);
    const taskId = await terminals.createTask('submit');
    const execution = await terminals.start(taskId, 'tui-submit');
    // Gemini CLI takes MCP servers, hooks and extra instructions only from settings files: the task shows it.
    expect(execution.unsupportedAttachments.map((entry: any) => entry.kind)).toEqual(['mcpServers', 'stopHook', 'promptSubmitHook', 'preToolUseHook', 'permissionRequestHook', 'directive']);
    const sentWith = (text: string) => turns(server).some((request) => JSON.stringify(partsOf(request.body)).includes(text));
    const first = await terminals.submit(taskId, 'First message,\nwith a second line.');
    // Without a prompt-submit hook nothing confirms it to svc: the model server is the witness here.
    expect(first).toMatchObject({ status: 200, body: { confirmed: false } });
    await waitFor(() => sentWith('First message,\\nwith a second line.'), 60_000, 'the first message at the model').catch(async (error: Error) => {
      throw new Error(`${error.message}\n${plain(await terminals.screen(taskId)).slice(-3000)}`);
    });
    await terminals.waitForScreen(taskId, ['The script has no more turns.']);
    const second = await terminals.submit(taskId, 'Second message.');
    expect(second).toMatchObject({ status: 200, body: { confirmed: false } });
    await waitFor(() => sentWith('Second message.'), 60_000, 'the second message at the model');
    await terminals.stop(taskId);
  });
});
