// A person in the chat closes the loop, each journey as they see it: a real `svc serve`, task
// terminals in real PTYs (the Qwen Code stand-in), the outbox sending through a scripted OpenClaw
// Gateway, and the person's messages handed to the real gateway plugins (OpenClaw's before_dispatch
// handler; Hermes's hook inside the Hermes stand-in), each talking to a real `svc mcp` child.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../../../test/support/qwen-demo-project.js';
import { connectSvcMcp } from '../../../test/support/svc-mcp-client.js';
import { createSvcSandbox, REPO_ROOT, SVC_BIN, type SvcSandbox } from '../../../test/support/svc-process.js';
import { taskTerminalMcpEnv } from '../../../test/support/task-terminal-mcp-env.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../../../test/support/svc-serve.js';
import { until } from '../../../test/support/until.js';
import { completeGatewayWork, confirmGatewayTaskCreated, routeGatewayMessage } from '../../src/routing/index.js';
import { startScriptedOpenClawGateway, type ScriptedOpenClawGateway } from '../support/scripted-openclaw-gateway.js';
import { runOperation } from '../support/run-operation.js';
import { harnessPlugin } from '../../src/feature.js';

type Answer = { handled: boolean; text?: string } | undefined;
type Handler = { handle(event: unknown, ctx: unknown): Promise<Answer>; close(): void };

const OWNER = '4242';
const TOKEN = 'oc-journeys-token-0123456789abcdef';
let svc: SvcSandbox;
let gateway: ScriptedOpenClawGateway;
let server: ServeProcess;
let openclaw: Handler;
let local: HostServices;
/** The gateway's credential (`svc gateway credential claw`), as a person puts it in the plugin's env setting. */
let gatewayCredential: string;
let nextMessage = 9000;

const ok = (args: string[]) => svcOk(svc, args);
const newTask = async (title: string, project = 'demo') => Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', project]))![1]);
const executionsOf = async (taskId: number) => JSON.parse(await ok(['task', 'show', String(taskId), '--json'])).executions as { id: number; status: string; pid: number }[];
const count = (sql: string, ...args: unknown[]) => (local.db.prepare(sql).get(...args) as { n: number }).n;

/** What the person types in their Telegram DM with the bot, as OpenClaw's hook gets it. */
function dm(content: string, replyToId?: string): Promise<Answer> {
  const messageId = String(++nextMessage);
  const event = { content, messageId, senderId: OWNER, ...(replyToId ? { replyToId } : {}) };
  return openclaw.handle(event, { channelId: 'telegram', accountId: 'default', conversationId: OWNER, messageId, senderId: OWNER });
}

/** The message that reached the chat for a task (its delivery through the scripted gateway). */
const arrived = (taskId: number, text: string) =>
  until(() => [...gateway.deliveries.values()].find((d) => d.request.message.includes(text) && d.request.message.includes(`[[svc:task=${taskId}]]`)), 20_000, `"${text}" in the chat`);

/**
 * A task terminal's agent asks the person through its own `svc mcp`, wired as the terminal wires it
 * (profile task, its task proven by the execution's credential), and waits.
 */
async function taskAsks(taskId: number, question: string): Promise<{ messageId: number }> {
  const [running] = await executionsOf(taskId);
  const mcp = await connectSvcMcp(svc, taskTerminalMcpEnv(running!.pid));
  try {
    return await mcp.call('push_to_human', { message: question, expectReply: true });
  } finally {
    await mcp.close();
  }
}

async function liveTask(title: string) {
  const taskId = await newTask(title);
  await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
  const banner = await readTerminalUntil(server, taskId, 'qwen> ');
  return { taskId, cursor: banner.cursor as number };
}

// The Qwen stand-in draws a prompt but no bracketed paste, so a reply finds no prompt to wait for:
// a short terminals.promptWaitMs types it once the output is quiet, as an operator of such a CLI would.
const SERVE_ENV = { SVC_OUTBOX_POLL_MS: '200', SVC_WORKBENCH_POLL_MS: '200', SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_PROMPT_WAIT_MS: '500' };
/**
 * How long a check that nothing more is typed waits: a second typing of a reply would show within
 * the prompt wait (500 ms above), the paste, the pause before Enter and the stand-in's echo, about
 * 1.4 s on the reply path and 2.2 s through continue_bound_task; 2.5 s covers both.
 */
const NOTHING_MORE_MS = 2500;

async function stopServer(): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  await server.exited;
}

const parked = (taskId: number) => until(async () => (await executionsOf(taskId))[0]?.status === 'PAUSED', 20_000, 'the execution PAUSED');

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  gateway = await startScriptedOpenClawGateway(TOKEN);
  await prepareQwenDemoProject(svc);
  mkdirSync(join(svc.home, 'beta'));
  await ok(['project', 'create', 'beta', '--workspace', 'main', '--repo', join(svc.home, 'beta')]);
  const added = await svc.run(['gateway', 'add', 'claw', '--kind', 'openclaw', '--url', gateway.url, '--token-env', 'OC_TOKEN'], { timeoutMs: 60_000, env: { OC_TOKEN: TOKEN } });
  expect(added.code).toBe(0);
  await ok(['channel', 'add', 'tg', '--gateway', 'claw', '--platform', 'telegram', '--to', OWNER, '--owner', OWNER]);
  // Only the plugin, holding the gateway's credential, may say who sent a message.
  gatewayCredential = (JSON.parse(await ok(['gateway', 'credential', 'claw', '--json'])) as { credential: string }).credential;
  server = await startServe(svc, SERVE_ENV);
  const plugin = (await import(pathToFileURL(join(REPO_ROOT, 'harness/openclaw-plugin/index.js')).href)) as { createHandler(config: unknown): Handler };
  openclaw = plugin.createHandler({ command: process.execPath, args: [SVC_BIN, 'mcp'], env: { SVC_HOME: svc.home, SVC_LOG_LEVEL: 'error', SVC_GATEWAY_CREDENTIAL: gatewayCredential } });
  local = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
}, 180_000);

afterAll(async () => {
  openclaw?.close();
  await local?.close();
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await gateway?.close();
  svc?.cleanup();
});

describe('a person in the chat closes the loop', () => {
  test('1. a Telegram reply (no token typed) answers the ask: typed into the same live PTY, RUNNING, answered; a second reply is told it came late', async () => {
    const { taskId, cursor } = await liveTask('Needs a decision');
    const asked = await taskAsks(taskId, 'Which database should the service use?');
    const question = await arrived(taskId, 'Which database should the service use?');
    await parked(taskId);
    const [before] = await executionsOf(taskId);

    const answer = await dm('use postgres', question.messageId);
    expect(answer).toEqual({ handled: true, text: `svc: your answer reached task ${taskId}; it continues.` });
    const echoed = await readTerminalUntil(server, taskId, 'You said: ', cursor);
    expect(echoed.data).toContain('use postgres');
    const [after] = await executionsOf(taskId);
    expect(after).toMatchObject({ id: before!.id, status: 'RUNNING', pid: before!.pid });
    // The notification center shows it answered, from the gateway.
    const shown = JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json']));
    expect(shown).toMatchObject({ status: 'ANSWERED', ask: { reply: 'use postgres', repliedVia: 'gateway', resumeOutcome: 'already_running' } });

    const late = await dm('actually, sqlite', question.messageId);
    expect(late).toMatchObject({ handled: true, text: expect.stringContaining(`task ${taskId}'s question was already answered`) });
    expect(late!.text).toContain('not passed on');
    await new Promise((r) => setTimeout(r, NOTHING_MORE_MS));
    const rest = await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${echoed.cursor}`);
    expect(rest.body.data).not.toContain('sqlite');
    expect(JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json'])).ask.reply).toBe('use postgres');
    await ok(['task', 'stop', String(taskId)]);
  }, 180_000);

  test('2. the same through the Hermes plugin: the reply answers the ask in the live PTY; a second one is told it came late', async () => {
    const { taskId, cursor } = await liveTask('Needs a port');
    const asked = await taskAsks(taskId, 'Which port should the health check use?');
    const question = await arrived(taskId, 'Which port should the health check use?');
    await parked(taskId);
    const reply = (id: string, text: string) => ({ platform: 'telegram', chat_id: OWNER, chat_type: 'dm', user_id: OWNER, message_id: id, text, reply_to_message_id: question.messageId });
    const { outcomes } = await hermes([reply('h1', 'port 8080'), reply('h2', 'no, 9090')]);
    expect(outcomes[0]!.sent).toEqual([{ chatId: OWNER, content: `svc: your answer reached task ${taskId}; it continues.`, replyTo: 'h1', metadata: null }]);
    expect(outcomes[1]!.sent[0]!.content).toContain(`task ${taskId}'s question was already answered`);
    const echoed = await readTerminalUntil(server, taskId, 'You said: ', cursor);
    expect(echoed.data).toContain('port 8080');
    expect(echoed.data).not.toContain('9090');
    expect((await executionsOf(taskId))[0]).toMatchObject({ status: 'RUNNING' });
    expect(JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json']))).toMatchObject({ status: 'ANSWERED', ask: { reply: 'port 8080', repliedVia: 'gateway' } });
    await ok(['task', 'stop', String(taskId)]);
  }, 180_000);

  test('3. a question about a finished task is answered in the chat from its result, and no terminal is touched', async () => {
    const ctx = { services: local, caller: { via: 'internal' as const }, signal: new AbortController().signal };
    const work = (await runOperation(routeGatewayMessage, { platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: 'w-12', text: 'add CSV export', kind: 'work', project: 'demo' }, ctx)) as {
      inboundId: number;
      workbenchTaskId: number;
    };
    const child = local.domain.tasks.create({ projectId: local.domain.projects.resolve('demo').id, title: 'CSV export', parentTaskId: work.workbenchTaskId });
    await runOperation(confirmGatewayTaskCreated, { inboundId: work.inboundId, taskId: child.id }, ctx);
    await runOperation(completeGatewayWork, { taskId: child.id, result: 'Added `svc export --csv` and its test; README updated.' }, ctx);
    const result = await arrived(child.id, 'Added `svc export --csv`');
    const inboundBefore = count('SELECT COUNT(*) AS n FROM harness_gateway_inbound');

    const answer = await dm(`what did task ${child.id} change?`, result.messageId);
    expect(answer).toMatchObject({ handled: true, text: expect.stringContaining(`Task ${child.id} "CSV export" is DONE.`) });
    expect(answer!.text).toContain('Latest result: Added `svc export --csv` and its test; README updated.');
    expect(await executionsOf(child.id)).toEqual([]);
    expect(count('SELECT COUNT(*) AS n FROM harness_gateway_inbound')).toBe(inboundBefore);
  }, 120_000);

  test('4. in a DM the person works on project A, then names project B: B gets it, and the next unnamed message stays with B', async () => {
    const routedTo = () => {
      const row = local.db.prepare('SELECT p.name, i.routed_by FROM harness_gateway_inbound i JOIN projects p ON p.id = i.project_id ORDER BY i.id DESC LIMIT 1').get() as { name: string; routed_by: string };
      return { name: row.name, routed_by: row.routed_by };
    };
    expect(await dm('/svc @demo how is the parser coming along?')).toMatchObject({ handled: true, text: expect.stringContaining('Workbench') });
    expect(routedTo()).toEqual({ name: 'demo', routed_by: 'explicit_project' });
    await dm('/svc and the tests for it');
    expect(routedTo()).toEqual({ name: 'demo', routed_by: 'recent_project' });
    await dm('/svc @beta please outline the docs');
    expect(routedTo()).toEqual({ name: 'beta', routed_by: 'explicit_project' });
    await dm('/svc one more section on install');
    expect(routedTo()).toEqual({ name: 'beta', routed_by: 'recent_project' });
    const beta = local.domain.projects.resolve('beta').id;
    const workbench = local.db.prepare('SELECT task_id FROM harness_workbenches WHERE project_id = ?').get(beta) as { task_id: number };
    expect(count("SELECT COUNT(*) AS n FROM harness_workbench_events WHERE parent_task_id = ? AND kind = 'GATEWAY_DISCUSSION_REQUEST'", workbench.task_id)).toBe(2);
  }, 120_000);

  test('5. relay_channel_reply with the service running: an OPEN ask is answered in the PTY; a plain reply returns context only', async () => {
    const { taskId, cursor } = await liveTask('Relay me');
    await taskAsks(taskId, 'Ship it today?');
    await arrived(taskId, 'Ship it today?');
    await parked(taskId);
    const mcp = await connectSvcMcp(svc, { SVC_MCP_PROFILE: 'full' });
    try {
      const answered = await mcp.call('relay_channel_reply', { taskId, reply: 'yes, ship it' });
      expect(answered).toMatchObject({ kind: 'answered_ask', taskId, context: { openAsk: null } });
      const echoed = await readTerminalUntil(server, taskId, 'You said: ', cursor);
      expect(echoed.data).toContain('yes, ship it');
      expect((await executionsOf(taskId))[0]).toMatchObject({ status: 'RUNNING' });
      const plain = await mcp.call('relay_channel_reply', { taskId, reply: 'thanks!' });
      expect(plain).toMatchObject({ kind: 'context_only', taskId, context: { subjectTaskId: taskId, openAsk: null } });
      await new Promise((r) => setTimeout(r, NOTHING_MORE_MS));
      expect((await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${echoed.cursor}`)).body.data).not.toContain('thanks!');
    } finally {
      await mcp.close();
    }
    await ok(['task', 'stop', String(taskId)]);
  }, 180_000);

  test("an owner's continue_bound_task into a PAUSED task with an OPEN ask answers the ask: RUNNING, typed once; a repeat is a noOp", async () => {
    const { taskId, cursor } = await liveTask('Continue me');
    const asked = await taskAsks(taskId, 'Proceed with the migration?');
    await arrived(taskId, 'Proceed with the migration?');
    await parked(taskId);
    const gatewayMcp = await connectSvcMcp(svc, { SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: gatewayCredential });
    try {
      const call = { platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: 'c-1', text: 'continue: yes, migrate', taskId };
      expect(await gatewayMcp.call('continue_bound_task', call)).toMatchObject({ status: 'answered_ask', taskId });
      const echoed = await readTerminalUntil(server, taskId, 'You said: ', cursor);
      expect(echoed.data).toContain('continue: yes, migrate');
      expect((await executionsOf(taskId))[0]).toMatchObject({ status: 'RUNNING' });
      expect(JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json']))).toMatchObject({ status: 'ANSWERED', ask: { reply: 'continue: yes, migrate', repliedVia: 'gateway' } });
      expect(await gatewayMcp.call('continue_bound_task', call)).toMatchObject({ status: 'already_processed', noOp: true });
      await new Promise((r) => setTimeout(r, NOTHING_MORE_MS));
      const rest = (await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${echoed.cursor}`)).body.data as string;
      expect(rest).not.toContain('yes, migrate');
    } finally {
      await gatewayMcp.close();
    }
    await ok(['task', 'stop', String(taskId)]);
  }, 180_000);

  test('6. kill -9 of svc serve between the reply\'s arrival and its injection: after the restart the reply is applied exactly once', async () => {
    await stopServer();
    server = await startServe(svc, { ...SERVE_ENV, SVC_TEST_CRASH_AT: 'gateway-continue:marked' });
    const { taskId } = await liveTask('Survives a crash');
    const asked = await taskAsks(taskId, 'Drop the old table?');
    await arrived(taskId, 'Drop the old table?');
    await parked(taskId);
    const call = { platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: 'k-1', text: 'continue: yes, drop it', taskId };
    const first = await connectSvcMcp(svc, { SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: gatewayCredential });
    // The service dies after the reply arrived and was recorded, before it was typed.
    await first.fail('continue_bound_task', call).catch(() => undefined);
    await first.close();
    await server.exited;
    server = await startServe(svc, SERVE_ENV);
    const gatewayMcp = await connectSvcMcp(svc, { SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: gatewayCredential });
    try {
      const stuck = (local.db.prepare("SELECT id FROM harness_gateway_inbound WHERE platform_message_id = 'k-1'").get() as { id: number }).id;
      await gatewayMcp.call('recover_gateway_request', { platform: 'telegram', chatId: OWNER, senderId: OWNER, inboundId: stuck });
      // The same platform message delivered again: applied now, on the same row, exactly once, into
      // the terminal the restarted service took back from the terminal holder.
      expect(await gatewayMcp.call('continue_bound_task', call)).toMatchObject({ status: 'injected', inboundId: stuck, taskId });
      const typed = await readTerminalUntil(server, taskId, 'You said: ');
      expect(typed.data).toContain('continue: yes, drop it');
      expect(await gatewayMcp.call('continue_bound_task', call)).toMatchObject({ status: 'already_processed', noOp: true });
      await new Promise((r) => setTimeout(r, NOTHING_MORE_MS));
      const all = (await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=0`)).body.data as string;
      // The stand-in answers each submitted message with "You said: …": the reply arrived once.
      expect(all.match(/You said: (\x1b\[200~)?continue: yes, drop it/g)).toHaveLength(1);
      expect(JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json']))).toMatchObject({ status: 'ANSWERED', ask: { reply: 'continue: yes, drop it' } });
    } finally {
      await gatewayMcp.close();
    }
    await ok(['task', 'stop', String(taskId)]);
  }, 240_000);

  test("6, the ask path: kill -9 of svc serve after a chat reply answered the ask, before it was typed: the restarted service types it exactly once", async () => {
    await stopServer();
    server = await startServe(svc, { ...SERVE_ENV, SVC_TEST_CRASH_AT: 'reply-to-ask:answered' });
    const { taskId } = await liveTask('Answer survives a crash');
    const asked = await taskAsks(taskId, 'Blue-green or rolling?');
    const question = await arrived(taskId, 'Blue-green or rolling?');
    await parked(taskId);
    const [before] = await executionsOf(taskId);

    // The person replies in Telegram; the service dies with the answer recorded and nothing typed.
    const during = await dm('blue-green, please', question.messageId);
    expect(during).toMatchObject({ handled: true, text: expect.stringMatching(/^svc: /) });
    await server.exited;
    expect(server.child.signalCode).toBe('SIGKILL');
    expect(JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json']))).toMatchObject({
      status: 'ANSWERED',
      ask: { reply: 'blue-green, please', repliedVia: 'gateway', resumeOutcome: 'delivering' },
    });

    // The restarted service takes the parked terminal back from the terminal holder (the same CLI
    // process) and types the answer into it.
    server = await startServe(svc, SERVE_ENV);
    await readTerminalUntil(server, taskId, 'You said: ');
    await until(async () => JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json'])).ask.resumeOutcome === 'already_running', 30_000, 'the answer recorded as typed');
    const executions = await executionsOf(taskId);
    expect(executions).toHaveLength(1);
    expect(executions[0]).toMatchObject({ id: before!.id, status: 'RUNNING', pid: before!.pid });

    await new Promise((r) => setTimeout(r, NOTHING_MORE_MS));
    const typed = (await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=0`)).body.data as string;
    expect(typed.match(/You said: (\x1b\[200~)?blue-green, please/g)).toHaveLength(1);

    // Sending it again is told it came late; a further restart types nothing again.
    const again = await dm('blue-green, please', question.messageId);
    expect(again!.text).toContain(`task ${taskId}'s question was already answered`);
    await stopServer();
    server = await startServe(svc, SERVE_ENV);
    await readTerminalUntil(server, taskId, 'qwen> ');
    await new Promise((r) => setTimeout(r, NOTHING_MORE_MS));
    const takenBackAgain = (await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=0`)).body.data as string;
    expect(takenBackAgain.match(/You said: (\x1b\[200~)?blue-green, please/g)).toHaveLength(1);
    expect(JSON.parse(await ok(['harness', 'show', String(asked.messageId), '--json'])).ask).toMatchObject({ reply: 'blue-green, please', resumeOutcome: 'already_running' });
    await ok(['task', 'stop', String(taskId)]);
  }, 300_000);
});

interface Outcome {
  results: ({ action: string; reason?: string } | null)[];
  sent: { chatId: string; content: string; replyTo: string | null; metadata: Record<string, string> | null }[];
}

/**
 * Feeds messages through the Hermes plugin inside the Hermes stand-in (one python3 process, one svc
 * mcp). Its env setting carries the credential of the gateway whose channel serves this chat.
 */
function hermes(messages: object[]): Promise<{ hooks: string[]; outcomes: Outcome[] }> {
  const settings = { command: process.execPath, args: [SVC_BIN, 'mcp'], env: { SVC_HOME: svc.home, SVC_LOG_LEVEL: 'error', SVC_GATEWAY_CREDENTIAL: gatewayCredential } };
  const standIn = join(REPO_ROOT, 'harness/test/hermes-plugin/hermes-stand-in.py');
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [standIn, join(REPO_ROOT, 'harness/hermes-plugin'), JSON.stringify(settings)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`the Hermes stand-in exited ${code}\n${out}\n${err}`));
    });
    child.stdin.end(JSON.stringify(messages));
  });
}
