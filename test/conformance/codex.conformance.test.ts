// Conformance of the Codex provider: the real, pinned `codex` (npm launcher and native binary) driven by
// the real `svc`, the model side the scripted Responses server on 127.0.0.1, reached through Codex's own
// `-c model_provider…` overrides given as the connection's base args, with a placeholder key.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  startOpenAiResponsesServer,
  type OpenAiResponsesServer,
  type ScriptedResponsesSideTurn,
  type ScriptedResponsesTurn,
} from '../model-servers/openai-responses-server.js';
import { cancelQuery } from './support/cancel-query.js';
import { createConformanceSandbox, type ConformanceSandbox } from './support/conformance-sandbox.js';
import { enableInChosenMode } from './support/isolation-args.js';
import { writeDenyHook } from './support/deny-hook.js';
import { mergeDeltas } from './support/merge-deltas.js';
import { recordMatrixCell } from './support/client-matrix.js';
import { initializeOf, startProbeServer, type ProbeServer } from './support/mcp-probe-server.js';
import { featureCells, recordCells, slowCells } from './support/probe-cells.js';
import { startServe } from '../support/svc-serve.js';
import { addScriptedChat, answerApprovalCalls, APPROVAL_CALLS, APPROVALS_DONE } from './support/approval-chat.js';
import { plain, startTaskTerminals, type TaskTerminals } from './support/task-terminals.js';
import { SVC_BIN, waitFor } from '../support/svc-process.js';

const ID = 'svc-official.codex';
const PLACEHOLDER_KEY = 'sk-placeholder-not-a-real-key';
// A catalog model whose tools are the classic exec_command / apply_patch (see the provider README).
const MODEL = 'gpt-5.5';
let sandbox: ConformanceSandbox;
const servers: OpenAiResponsesServer[] = [];

beforeAll(async () => {
  sandbox = createConformanceSandbox('codex');
  await enableInChosenMode(sandbox, ID);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  sandbox?.cleanup();
});

async function connect(name: string, script: ScriptedResponsesTurn[], options: { whenExhausted?: ScriptedResponsesTurn; settings?: string[]; env?: string[] } = {}) {
  const server = await startOpenAiResponsesServer({ script, ...(options.whenExhausted ? { whenExhausted: options.whenExhausted } : {}) });
  servers.push(server);
  const provider = `model_providers.mock={name="mock",base_url="${server.url}",wire_api="responses",env_key="MOCK_API_KEY",supports_websockets=false}`;
  await sandbox.ok([
    'connection', 'add', name, '--provider', ID,
    '--arg=-c', '--arg=model_provider="mock"', '--arg=-c', `--arg=${provider}`,
    // No traffic but the model's.
    '--arg=-c', '--arg=analytics.enabled=false',
    '--env', `MOCK_API_KEY=${PLACEHOLDER_KEY}`,
    '--set', `model=${MODEL}`,
    ...(options.settings ?? []).flatMap((setting) => ['--set', setting]),
    ...(options.env ?? []).flatMap((variable) => ['--env', variable]),
  ]);
  return server;
}

type InputItem = {
  type?: string;
  role?: string;
  call_id?: string;
  output?: unknown;
  content?: Array<{ text?: string }>;
  tools?: Array<{ type?: string; name?: string; tools?: Array<{ name?: string }> }>;
};
const inputOf = (body: unknown) => ((body as { input?: InputItem[] }).input ?? []);
const outputsSent = (body: unknown) => inputOf(body).filter((item) => item.type === 'function_call_output');
const hostLog = () => readFileSync(join(sandbox.svc.home, 'logs', 'svc.log'), 'utf8');

describe('Codex through svc', () => {
  test('svc finds the pinned CLI and its version is in the provider range', async () => {
    const doctor = await sandbox.ok(['ext', 'doctor', ID]);
    expect(doctor.stdout).toContain(`cli-dependency  ${sandbox.cli.version} at ${join(sandbox.cli.binDir, 'codex')}`);
  });

  test('plain text: session, reasoning, text, usage and finish, exactly', async () => {
    const server = await connect('text', [
      { type: 'text', reasoning: '**Greeting the user**', text: 'Hello from the scripted model.', usage: { inputTokens: 1500, outputTokens: 30 } },
    ]);
    const result = await sandbox.query('text', 'Say hello');
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      { type: 'reasoning', text: '**Greeting the user**' },
      { type: 'text', text: 'Hello from the scripted model.' },
      { type: 'usage', inputTokens: 1500, outputTokens: 30, totalTokens: 1530 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${PLACEHOLDER_KEY}`);
    expect(inputOf(server.requests[0]!.body).at(-1)).toMatchObject({ role: 'user', content: [{ text: 'Say hello' }] });
  });

  test('a tool call and its result: the command ran, its item id pairs the events, its call id pairs the model side', async () => {
    const server = await connect('tool', [
      {
        type: 'tool-calls',
        text: 'I will run the command.',
        calls: [{ callId: 'call_conformance_echo', name: 'exec_command', arguments: { cmd: 'echo hello-from-tool' } }],
        usage: { inputTokens: 1500, outputTokens: 40 },
      },
      { type: 'text', text: 'The command printed hello-from-tool.', usage: { inputTokens: 1600, outputTokens: 20 } },
    ]);
    const result = await sandbox.query('tool', 'Run echo hello-from-tool');
    expect(result.code, result.stderr).toBe(0);
    const events = mergeDeltas(result.events);
    // `codex exec --json` names a command by its item id; the model's call id never appears in it.
    expect(events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'I will run the command.' },
      { type: 'tool-call', toolCallId: expect.stringMatching(/^item_/), toolName: 'command_execution', input: { command: expect.stringContaining('echo hello-from-tool') } },
      { type: 'tool-result', toolCallId: expect.stringMatching(/^item_/), toolName: 'command_execution', output: { exitCode: 0, output: 'hello-from-tool\n' }, isError: false },
      { type: 'text', text: '\n\nThe command printed hello-from-tool.' },
      { type: 'usage', inputTokens: 3100, outputTokens: 60, totalTokens: 3160 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect((events[3] as { toolCallId: string }).toolCallId).toBe((events[2] as { toolCallId: string }).toolCallId);
    expect(server.requests).toHaveLength(2);
    expect(outputsSent(server.requests[1]!.body)).toEqual([expect.objectContaining({ call_id: 'call_conformance_echo', output: expect.stringContaining('hello-from-tool') })]);
  });

  test('resume: `exec resume` keeps the thread id, and usage is the new turn only', async () => {
    const server = await connect('resume', [
      { type: 'text', text: 'I will remember 42.', usage: { inputTokens: 1500, outputTokens: 10 } },
      // Codex reports usage cumulated over the thread (1500 + 1700); the provider emits the difference.
      { type: 'text', text: 'You gave me 42.', usage: { inputTokens: 1700, outputTokens: 8 } },
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
      { type: 'usage', inputTokens: 1700, outputTokens: 8, totalTokens: 1708 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const history = JSON.stringify(inputOf(server.requests[1]!.body));
    expect(history).toContain('Remember the number 42.');
    expect(history).toContain('I will remember 42.');
  });

  test('max turns: Codex has none, so --max-turns is not applied (the run goes on) and the host log says it was ignored', async () => {
    const server = await connect('max-turns', [
      { type: 'tool-calls', calls: [{ callId: 'call_conformance_max', name: 'exec_command', arguments: { cmd: 'echo one' } }] },
      { type: 'text', text: 'Both turns ran.' },
    ]);
    const result = await sandbox.query('max-turns', 'Run echo one', ['--max-turns', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'tool-call', toolCallId: expect.any(String), toolName: 'command_execution', input: { command: expect.stringContaining('echo one') } },
      { type: 'tool-result', toolCallId: expect.any(String), toolName: 'command_execution', output: { exitCode: 0, output: 'one\n' }, isError: false },
      { type: 'text', text: 'Both turns ran.' },
      { type: 'usage', inputTokens: 2400, outputTokens: 60, totalTokens: 2460 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(server.requests).toHaveLength(2);
    expect(hostLog()).toContain('maxTurns was ignored');
  });

  test('cancel mid-stream: Ctrl-C ends svc with 130, finish cancelled, and no CLI process survives', async () => {
    const server = await connect('cancel', [{ type: 'stall', text: 'Once upon a time' }]);
    const outcome = await cancelQuery(sandbox, 'cancel', 'Write a long story.', (stdout) => server.requests.length === 1 && stdout.includes('"session"'));
    expect(outcome.code, outcome.stderr).toBe(130);
    expect(outcome.tree.some((process) => process.command.includes('codex'))).toBe(true);
    expect(outcome.survivors).toEqual([]);
    // Codex prints an agent message only once it is complete: a stalled answer shows nothing of it.
    expect(outcome.events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });

  test('authentication failure: a 401 from the API is cli_auth_failed once Codex gives up retrying', async () => {
    const server = await connect('auth', [], {
      whenExhausted: { type: 'error', status: 401, message: 'Incorrect API key provided: sk-place*****.', errorType: 'invalid_request_error', code: 'invalid_api_key' },
    });
    const result = await sandbox.query('auth', 'Say hello');
    expect(result.code, result.stderr).toBe(1);
    expect(result.events).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'error', code: 'cli_auth_failed', message: expect.stringContaining('401') },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(result.stderr).toContain('error cli_auth_failed');
    expect(result.stdout + result.stderr).not.toContain(PLACEHOLDER_KEY);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  test('a PreToolUse hook installed with `svc integration hooks add` (and trusted by it) denies a command: it does not run, and the model sees why', async () => {
    const reason = 'Blocked by the svc conformance hook';
    const hook = writeDenyHook(sandbox.home, {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    });
    const hooksFile = join(sandbox.home, '.codex', 'hooks.json');
    await sandbox.ok(['integration', 'hooks', 'add', '--provider', ID, '--matcher', 'Bash', '--command', hook.command]);
    expect(readFileSync(hooksFile, 'utf8')).toContain(hook.command);
    // workspace-write lets the command create the file, so only the hook can stop it.
    const server = await connect(
      'hook',
      [
        { type: 'tool-calls', calls: [{ callId: 'call_conformance_touch', name: 'exec_command', arguments: { cmd: 'touch made-by-the-tool.txt' } }] },
        { type: 'text', text: 'The hook blocked the command.' },
      ],
      { settings: ['sandbox=workspace-write'] },
    );
    const result = await sandbox.query('hook', 'Create the file.');
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(sandbox.workspace, 'made-by-the-tool.txt'))).toBe(false);
    expect(hook.calls()).toEqual([
      expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'call_conformance_touch', tool_input: { command: 'touch made-by-the-tool.txt' } }),
    ]);
    // Codex's JSON stream has no item for a command a hook blocked: nothing is invented for it.
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'text', text: 'The hook blocked the command.' },
      { type: 'usage', inputTokens: 2400, outputTokens: 60, totalTokens: 2460 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(outputsSent(server.requests[1]!.body)).toEqual([
      expect.objectContaining({ call_id: 'call_conformance_touch', output: expect.stringContaining(`Command blocked by PreToolUse hook: ${reason}`) }),
    ]);
    await sandbox.ok(['integration', 'hooks', 'remove', '--provider', ID, '--matcher', 'Bash', '--command', hook.command]);
    expect(existsSync(hooksFile)).toBe(false);
  });

  test('svc mcp added with `codex mcp add` as a user does: the model finds the tool with tool_search, calls it, and its result reaches the model', async () => {
    await sandbox.ok(['workspace', 'create', 'conformance-ws']);
    execFileSync(
      join(sandbox.cli.binDir, 'codex'),
      ['mcp', 'add', 'svc', '--env', `SVC_HOME=${sandbox.svc.home}`, '--env', 'SVC_MCP_PROFILE=assistant', '--', process.execPath, SVC_BIN, 'mcp'],
      { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' },
    );
    const config = join(sandbox.home, '.codex', 'config.toml');
    expect(readFileSync(config, 'utf8')).toContain('[mcp_servers.svc]\n');
    // As docs/mcp-setup.md says (`codex mcp add` has no flag for it): without `required = true` Codex leaves out
    // the tools of a server that took more than a second to start, which a busy machine sees.
    writeFileSync(config, readFileSync(config, 'utf8').replace('[mcp_servers.svc]\n', '[mcp_servers.svc]\nrequired = true\n'));
    // Codex defers MCP tools: the model sees only its client-side `tool_search`, whose output names the
    // tools it found in the namespace `mcp__<server>`; a function call in that namespace runs one.
    const server = await connect('svc-mcp', [
      // Profile assistant: a search that finds ask_human under profile full finds no messaging tool.
      { type: 'tool-calls', calls: [{ callId: 'call_conformance_ask', toolSearch: { query: 'ask the human a question', limit: 8 } }] },
      { type: 'tool-calls', calls: [{ callId: 'call_conformance_search', toolSearch: { query: 'svc list workspaces', limit: 3 } }] },
      { type: 'tool-calls', calls: [{ callId: 'call_conformance_svc', namespace: 'mcp__svc', name: 'list_workspaces', arguments: {} }] },
      { type: 'text', text: 'You have one workspace.' },
    ]);
    const result = await sandbox.query('svc-mcp', 'Which workspaces do I have in svc?');
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(4);
    const offered = (server.requests[0]!.body as { tools: Array<{ type: string; name?: string }> }).tools;
    expect(offered).toContainEqual(expect.objectContaining({ type: 'tool_search', execution: 'client' }));
    expect(offered.map((tool) => tool.name)).not.toContain('list_workspaces');
    const searched = (request: number, callId: string) => {
      const found = inputOf(server.requests[request]!.body).filter((item) => item.type === 'tool_search_output' && item.call_id === callId);
      expect(found).toHaveLength(1);
      const namespace = found[0]!.tools!.find((tool) => tool.type === 'namespace' && tool.name === 'mcp__svc');
      return (namespace?.tools ?? []).map((tool) => tool.name);
    };
    const askFound = searched(1, 'call_conformance_ask');
    expect(askFound.length).toBeGreaterThan(0);
    expect(askFound).not.toContain('ask_human');
    expect(searched(2, 'call_conformance_search')).toContain('list_workspaces');
    const sent = outputsSent(server.requests[3]!.body);
    expect(sent).toEqual([expect.objectContaining({ call_id: 'call_conformance_svc' })]);
    expect(String(sent[0]!.output)).toContain('conformance-ws');
    // The stream shows the MCP call (not the search) under the name svc gives an MCP tool everywhere.
    const listed = { items: [expect.objectContaining({ id: 1, name: 'conformance-ws' })] };
    expect(mergeDeltas(result.events)).toEqual([
      { type: 'session', sessionId: expect.any(String) },
      { type: 'tool-call', toolCallId: 'item_0', toolName: 'mcp__svc__list_workspaces', input: {} },
      {
        type: 'tool-result',
        toolCallId: 'item_0',
        toolName: 'mcp__svc__list_workspaces',
        output: { content: [{ type: 'text', text: expect.stringContaining('conformance-ws') }], structured_content: listed },
        isError: false,
      },
      { type: 'text', text: 'You have one workspace.' },
      { type: 'usage', inputTokens: 4800, outputTokens: 120, totalTokens: 4920 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    recordMatrixCell({ client: 'Codex', version: sandbox.cli.version, feature: 'stdio', honoured: true, evidence: 'list_workspaces found with tool_search and called over stdio; its result reached the model', test: 'codex: svc mcp added with `codex mcp add`' });
  });

  test('/mcp of svc serve added with `codex mcp add --url` and a bearer token in the environment: the tool runs and its result reaches the model', async () => {
    const serve = await startServe(sandbox.svc);
    const config = join(sandbox.home, '.codex', 'config.toml');
    try {
      await sandbox.ok(['workspace', 'create', 'conformance-http-ws']);
      const token = (await sandbox.ok(['mcp', 'token', 'create', 'codex-http', '--profile', 'assistant'])).stdout.trim();
      execFileSync(join(sandbox.cli.binDir, 'codex'), ['mcp', 'add', 'svchttp', '--url', `${serve.url}/mcp`, '--bearer-token-env-var', 'SVC_MCP_TOKEN'], {
        env: sandbox.svc.env,
        cwd: sandbox.workspace,
        encoding: 'utf8',
      });
      writeFileSync(config, readFileSync(config, 'utf8').replace('[mcp_servers.svchttp]\n', '[mcp_servers.svchttp]\nrequired = true\n'));
      const server = await connect(
        'svc-mcp-http',
        [
          { type: 'tool-calls', calls: [{ callId: 'call_conformance_http_search', toolSearch: { query: 'svc list workspaces', limit: 3 } }] },
          { type: 'tool-calls', calls: [{ callId: 'call_conformance_http', namespace: 'mcp__svchttp', name: 'list_workspaces', arguments: {} }] },
          { type: 'text', text: 'Listed over HTTP.' },
        ],
        { env: [`SVC_MCP_TOKEN=${token}`] },
      );
      const result = await sandbox.query('svc-mcp-http', 'Which workspaces do I have in svc (over HTTP)?');
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests).toHaveLength(3);
      const sent = outputsSent(server.requests[2]!.body);
      expect(sent).toEqual([expect.objectContaining({ call_id: 'call_conformance_http' })]);
      expect(String(sent[0]!.output)).toContain('conformance-http-ws');
      // The token reached svc from the environment only: it is in no output.
      expect(result.stdout + result.stderr).not.toContain(token);
    } finally {
      execFileSync(join(sandbox.cli.binDir, 'codex'), ['mcp', 'remove', 'svchttp'], { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' });
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    recordMatrixCell({ client: 'Codex', version: sandbox.cli.version, feature: 'http', honoured: true, evidence: 'list_workspaces found with tool_search and called over Streamable HTTP with a bearer token; its result reached the model', test: 'codex: /mcp added with `codex mcp add --url`' });
  });

  describe('what Codex does with MCP features (a probe server, for the client matrix)', () => {
    let probe: ProbeServer;
    const config = () => join(sandbox.home, '.codex', 'config.toml');
    const who = (test: string) => ({ client: 'Codex', version: sandbox.cli.version, test: `codex: ${test}` });
    const search: ScriptedResponsesTurn = { type: 'tool-calls', calls: [{ callId: 'call_probe_search', toolSearch: { query: 'probe', limit: 10 } }] };
    const call = (callId: string, name: string) => ({ callId, namespace: 'mcp__probe', name, arguments: {} });

    beforeAll(async () => {
      probe = await startProbeServer();
      execFileSync(join(sandbox.cli.binDir, 'codex'), ['mcp', 'add', 'probe', '--url', probe.url], { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' });
      // Codex asks approval for an MCP tool unless its annotations say it is read-only, and `svc query`
      // cannot answer: the tools that probe other features are approved in the config as a user would;
      // probe_read and probe_delete are left to the annotations.
      const approved = ['probe_structured', 'probe_link', 'probe_elicit', 'probe_change', 'probe_added', 'probe_slow'].map(
        (tool) => `[mcp_servers.probe.tools.${tool}]\napproval_mode = "approve"\n`,
      );
      writeFileSync(config(), `${readFileSync(config(), 'utf8').replace('[mcp_servers.probe]\n', '[mcp_servers.probe]\nrequired = true\n')}\n${approved.join('\n')}`);
    });
    afterAll(async () => {
      execFileSync(join(sandbox.cli.binDir, 'codex'), ['mcp', 'remove', 'probe'], { env: sandbox.svc.env, cwd: sandbox.workspace, encoding: 'utf8' });
      await probe?.close();
    });

    test('structuredContent, resource links, annotations, elicitation and listChanged, as the client handles them', async () => {
      const server = await connect('probe-features', [
        search,
        { type: 'tool-calls', calls: ['probe_structured', 'probe_link', 'probe_elicit', 'probe_read', 'probe_delete'].map((name, index) => call(`call_probe_${index}`, name)) },
        { type: 'tool-calls', calls: [call('call_probe_change', 'probe_change')] },
        { type: 'text', text: 'Probed.' },
      ]);
      const result = await sandbox.query('probe-features', 'Probe the MCP features.');
      expect(result.code, result.stderr).toBe(0);
      expect(initializeOf(probe)).toBeDefined();
      expect(server.requests).toHaveLength(4);
      expect(probe.calls('probe_structured')).toHaveLength(1);
      expect(probe.calls('probe_change')).toHaveLength(1);
      expect(outputsSent(server.requests[2]!.body).map((item) => item.call_id)).toEqual([0, 1, 2, 3, 4].map((index) => `call_probe_${index}`));
      const later = JSON.stringify(server.requests.slice(2).map((request) => request.body));
      // Codex defers MCP tools: the definitions the model gets are in the tool_search output.
      const offered = JSON.stringify(server.requests.map((request) => inputOf(request.body).filter((item) => item.type === 'tool_search_output')));
      recordCells(who('probe tools called from a scripted turn'), featureCells(probe, later, offered));
    });

    test('progress and cancellation: Ctrl-C while an MCP tool call runs', async () => {
      const server = await connect('probe-slow', [search, { type: 'tool-calls', calls: [call('call_probe_slow', 'probe_slow')] }, { type: 'text', text: 'not reached' }]);
      const outcome = await cancelQuery(sandbox, 'probe-slow', 'Run the slow probe.', () => probe.calls('probe_slow').length === 1);
      expect(outcome.code, outcome.stderr).toBe(130);
      expect(server.requests).toHaveLength(2);
      const slow = probe.calls('probe_slow')[0]!;
      await waitFor(() => probe.messages.some((message) => message.method === 'notifications/cancelled'), 3_000, 'a cancellation').catch(() => undefined);
      recordCells(who('Ctrl-C while probe_slow ran'), slowCells(probe, slow));
    });
  });
});

// Codex's TUI names the thread from the first message in a side request of its own.
const sideTurns: ScriptedResponsesSideTurn[] = [{ match: /Generate a concise, single-line task title/, turn: { type: 'text', text: 'Scripted thread' } }];

/** A connection for the TUI: the first-start choosers skipped per run (-c), as interactive-ptys measured. */
async function connectTui(name: string, script: ScriptedResponsesTurn[], args: string[] = []) {
  const server = await startOpenAiResponsesServer({ script, sideTurns, whenExhausted: { type: 'text', text: 'Nothing more.' } });
  servers.push(server);
  const provider = `model_providers.mock={name="mock",base_url="${server.url}",wire_api="responses",env_key="MOCK_API_KEY",supports_websockets=false}`;
  const base = [
    '-c', 'model_provider="mock"', '-c', provider, '-c', 'analytics.enabled=false',
    '-c', `projects={${JSON.stringify(sandbox.workspace)}={trust_level="trusted"}}`,
    '-c', `notice.model_migrations={"${MODEL}"="gpt-6-sol"}`,
    ...args,
  ];
  await sandbox.ok(['connection', 'add', name, '--provider', ID, ...base.map((arg) => `--arg=${arg}`), '--env', `MOCK_API_KEY=${PLACEHOLDER_KEY}`, '--set', `model=${MODEL}`]);
  return server;
}

describe('Codex in a task terminal of the service (the TUI, in a PTY)', () => {
  let terminals: TaskTerminals;
  const QUESTION = {
    questions: [
      { id: 'colour', header: 'Colour', question: 'Which colour should the button be?', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] },
    ],
  };

  beforeAll(async () => {
    await addScriptedChat(sandbox);
    terminals = await startTaskTerminals(sandbox);
  });
  afterAll(async () => {
    await terminals?.close();
  });

  const conversation = (server: OpenAiResponsesServer) => server.requests.filter((request) => request.turn >= 0 || (request.turn === -1 && request.method === 'POST'));
  const outputsOf = (server: OpenAiResponsesServer) => conversation(server).flatMap((request) => outputsSent(request.body));
  const describeRequests = (server: OpenAiResponsesServer) =>
    JSON.stringify(server.requests.map((request) => ({ turn: request.turn, path: request.path, instructions: String((request.body as { instructions?: string })?.instructions ?? '').slice(0, 200), input: JSON.stringify(inputOf(request.body)).slice(-400) })), null, 1);

  async function askingTerminal(name: string, task: { parentTaskId?: number; unattended?: boolean }, args: string[] = []) {
    const server = await connectTui(name, [{ type: 'tool-calls', calls: [{ callId: `call_${name.replace(/-/g, '_')}`, name: 'request_user_input', arguments: QUESTION }] }, { type: 'text', text: 'I will go on without asking.' }], args);
    const taskId = await terminals.createTask(name, task);
    const execution = await terminals.start(taskId, name);
    expect(execution.unsupportedAttachments).toEqual([]);
    const submitted = await terminals.submit(taskId, 'Ask me which colour the button should be.');
    expect(submitted.body, `${plain(await terminals.screen(taskId)).slice(-3000)}\n${describeRequests(server)}`).toMatchObject({ confirmed: true });
    return { server, taskId };
  }

  test('typed text is submitted as the next message, confirmed by the hook; the turn end comes back through the Stop hook', async () => {
    const server = await connectTui('tui-submit', [{ type: 'text', text: 'Hello from the first turn.' }, { type: 'text', text: 'Hello from the second turn.' }]);
    const taskId = await terminals.createTask('submit');
    await terminals.start(taskId, 'tui-submit');
    const first = await terminals.submit(taskId, 'First message,\nwith a second line.');
    expect(first, `${plain(await terminals.screen(taskId)).slice(-3000)}\n${describeRequests(server)}`).toMatchObject({ status: 200, body: { confirmed: true } });
    await terminals.waitForScreen(taskId, ['Hello from the first turn.']);
    // Codex would discard a running answer for a message typed into it: svc waits for the Stop hook.
    await terminals.waitForTurn(taskId, 'idle');
    const second = await terminals.submit(taskId, 'Second message.');
    expect(second).toMatchObject({ status: 200, body: { confirmed: true } });
    await terminals.waitForScreen(taskId, ['Hello from the second turn.']);
    const sent = conversation(server).map((request) => JSON.stringify(inputOf(request.body)));
    expect(sent[0]).toContain('First message,\\nwith a second line.');
    // The task directive reached the model as developer instructions (-c developer_instructions).
    expect(sent[0]).toContain('follow the escalation ladder');
    expect(sent[1]).toContain('Second message.');
    await terminals.stop(taskId);
  });

  test('unattended, no parent: request_user_input is denied by the ladder hook and the model is told to use ask_human', async () => {
    const { server, taskId } = await askingTerminal('tui-unattended', { unattended: true });
    await waitFor(() => outputsOf(server).length > 0, 60_000, 'the tool output');
    expect(outputsOf(server)).toEqual([expect.objectContaining({ call_id: 'call_tui_unattended', output: expect.stringMatching(/blocked by PreToolUse hook: .*ask_human/) })]);
    await terminals.waitForScreen(taskId, ['I will go on without asking.']);
    await terminals.stop(taskId);
  });

  test('watched, no parent: the hook lets request_user_input through to Codex, which handles it itself', async () => {
    const { server, taskId } = await askingTerminal('tui-watched', {});
    await waitFor(() => outputsOf(server).length > 0, 60_000, 'the tool output');
    // Codex 0.169's TUI offers its question UI in Plan mode only; in Default mode it answers the call
    // itself. That answer (not the hook's "blocked by PreToolUse hook") shows the hook allowed it.
    expect(outputsOf(server)).toEqual([expect.objectContaining({ call_id: 'call_tui_watched', output: 'request_user_input is unavailable in Default mode' })]);
    await terminals.stop(taskId);
  });

  test('a child task, even watched: denied, steering to end the turn with the blocker', async () => {
    const parent = await terminals.createTask('the parent');
    const { server, taskId } = await askingTerminal('tui-child', { parentTaskId: parent });
    await waitFor(() => outputsOf(server).length > 0, 60_000, 'the tool output');
    expect(outputsOf(server)).toEqual([expect.objectContaining({ output: expect.stringMatching(/blocked by PreToolUse hook: .*End your turn with the blocker/) })]);
    await terminals.stop(taskId);
  });

  test('under --dangerously-bypass-approvals-and-sandbox, unattended: still denied by the hook', async () => {
    const { server, taskId } = await askingTerminal('tui-bypass', { unattended: true }, ['--dangerously-bypass-approvals-and-sandbox']);
    await waitFor(() => outputsOf(server).length > 0, 60_000, 'the tool output');
    expect(outputsOf(server)).toEqual([expect.objectContaining({ output: expect.stringMatching(/blocked by PreToolUse hook: .*ask_human/) })]);
    await terminals.stop(taskId);
  });

  test('unattended: a command permission request is relayed to the chat; a reply allows it once, a deny reaches the model, a task rule lets the identical call through, a changed command asks again', async () => {
    // The model asks to run outside the sandbox, which Codex's `on-request` policy asks the person about.
    const server = await connectTui('approvals', [
      ...APPROVAL_CALLS.map(([step, cmd]): ScriptedResponsesTurn => ({
        type: 'tool-calls',
        calls: [{ callId: `call_${step}`, name: 'exec_command', arguments: { cmd, sandbox_permissions: 'require_escalated', justification: 'Record a line' } }],
      })),
      { type: 'text', text: APPROVALS_DONE },
    ], ['-c', 'approval_policy="on-request"']);
    const taskId = await terminals.createTask('approvals', { unattended: true });
    await terminals.start(taskId, 'approvals');
    const submitted = await terminals.submit(taskId, 'Record the lines.');
    expect(submitted.body, submitted.screen).toMatchObject({ confirmed: true });
    await answerApprovalCalls(sandbox, terminals, taskId, (step) =>
      waitFor(() => server.requests.flatMap((request) => outputsSent(request.body)).find((item) => item.call_id === `call_${step}`), 60_000, `the output of ${step}`),
    );
    await terminals.stop(taskId);
  });
});
