// Conformance of the harness's openclaw gateway kind: the real, pinned OpenClaw gateway (on Node 24,
// which it needs) with its Telegram channel pointed at a scripted Bot API on 127.0.0.1 and our
// plugin (harness/openclaw-plugin) loaded. Outbound: a task's push_to_human goes through the real
// `svc serve` outbox, OpenClaw's Gateway WebSocket protocol and OpenClaw's Telegram sender; the
// platform message id comes back and is recorded. Inbound: an owner's `/svc work …` posted to the Bot
// API reaches the plugin's before_dispatch hook inside OpenClaw, `svc mcp` (profile gateway) routes it
// to the project's Workbench, and the reviewed FINAL_RESULT goes back through the outbox and OpenClaw
// to the same chat and topic. One gateway start serves every test of the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// The client file itself (not the module's index, which brings the database and its .sql migrations).
import { OpenClawClient } from '@svc-org/harness/gateways/openclaw-client';
import { REPO_ROOT, SVC_BIN } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { connectSvcMcp, type SvcMcp } from '../support/svc-mcp-client.js';
import { taskTerminalMcpEnv } from '../support/task-terminal-mcp-env.js';
import { createConformanceSandbox, type ConformanceSandbox } from './support/conformance-sandbox.js';
import { startTelegramBotApiServer, type TelegramBotApiServer } from './support/telegram-bot-api-server.js';

const QWEN_PROVIDER = join(REPO_ROOT, 'extensions/cli-providers/qwen-code');
const QWEN_STAND_IN = join(REPO_ROOT, 'test/fake-clis/qwen/qwen');
const TURN_HOOK = join(REPO_ROOT, 'harness/hooks/turn-hook.mjs');
const GATEWAY_TOKEN = 'svc-conformance-gateway-token-0123456789';
const OWNER = 4242;
// A forum supergroup the owner writes in, and its topic: the answer must come back to both.
const GROUP = -100777;
const TOPIC = 5;
let sandbox: ConformanceSandbox;
let telegram: TelegramBotApiServer;
let gateway: ChildProcess & { output?: string };
let gatewayUrl: string;
let gatewayCredential: string;
const serves: ServeProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${gateway?.output ? `\n--- openclaw output ---\n${gateway.output.slice(-4000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A task terminal's Stop hook, as its CLI runs it at the end of a turn: the real hook script, this task's identity. */
async function endTurn(taskId: number, executionId: number, turnId: string, lastMessage: string): Promise<void> {
  const hook = spawn(process.execPath, [TURN_HOOK, 'stop'], {
    env: { ...sandbox.svc.env, SVC_TASK_ID: String(taskId), SVC_EXECUTION_ID: String(executionId) },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  hook.stdin!.end(JSON.stringify({ hook_event_name: 'Stop', turn_id: turnId, last_assistant_message: lastMessage }));
  const code = await new Promise((resolve) => hook.once('exit', resolve));
  expect(code).toBe(0);
}

/** Reads a task terminal from `cursor` until `pattern` shows up; returns the text read and the next cursor. */
async function readTerminal(server: ServeProcess, taskId: number, pattern: RegExp, cursor = 0): Promise<{ data: string; cursor: number }> {
  return until(async () => {
    const read = await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${cursor}`);
    return read.status === 200 && pattern.test(read.body.data) ? { data: read.body.data as string, cursor: read.body.cursor as number } : undefined;
  }, 30_000, `${pattern} in the terminal of task ${taskId}`);
}

let qwenAdded: Promise<void> | undefined;
/** The Qwen Code stand-in as the connection `qwen`, added once for the tests that run task terminals. */
function addQwen(): Promise<void> {
  qwenAdded ??= (async () => {
    await sandbox.ok(['ext', 'dev', 'add', QWEN_PROVIDER]);
    await sandbox.ok(['ext', 'enable', 'svc-community.qwen-code', '--yes']);
    await sandbox.ok(['connection', 'add', 'qwen', '--provider', 'svc-community.qwen-code', '--command', QWEN_STAND_IN]);
  })();
  return qwenAdded;
}

async function serve(env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const started = await startServe(sandbox.svc, { SVC_OUTBOX_POLL_MS: '500', ...env });
  serves.push(started);
  return started;
}

async function stop(server: ServeProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  await server.exited;
}

beforeAll(async () => {
  sandbox = createConformanceSandbox('openclaw');
  telegram = await startTelegramBotApiServer();
  const port = await freePort();
  gatewayUrl = `ws://127.0.0.1:${port}`;
  // svc's side: the gateway, a project, and the channel that names the Telegram owner.
  const added = await sandbox.svc.run(['gateway', 'add', 'claw', '--kind', 'openclaw', '--url', gatewayUrl, '--token-env', 'OC_TOKEN'], { env: { OC_TOKEN: GATEWAY_TOKEN } });
  if (added.code !== 0) throw new Error(`svc gateway add failed\n${added.stdout}\n${added.stderr}`);
  // The plugin's proof that it, not a model's tool call, names the sender.
  gatewayCredential = (JSON.parse((await sandbox.ok(['gateway', 'credential', 'claw', '--json'])).stdout) as { credential: string }).credential;
  const repo = join(sandbox.home, 'repo');
  mkdirSync(repo);
  await sandbox.ok(['workspace', 'create', 'main']);
  await sandbox.ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', repo]);
  await sandbox.ok(['channel', 'add', 'tg', '--gateway', 'claw', '--platform', 'telegram', '--to', String(OWNER), '--owner', String(OWNER), '--project', 'demo']);
  // The offline recipe: token auth on loopback, the Telegram channel on the scripted Bot API, and our
  // plugin loaded from its folder, running `svc mcp` with this Node and this SVC_HOME.
  mkdirSync(join(sandbox.home, '.openclaw'));
  writeFileSync(
    join(sandbox.home, '.openclaw', 'openclaw.json'),
    `${JSON.stringify(
      {
        gateway: { mode: 'local', port, bind: 'loopback', auth: { mode: 'token', token: GATEWAY_TOKEN } },
        channels: {
          telegram: {
            enabled: true,
            botToken: '123456:TEST',
            apiRoot: telegram.apiRoot,
            dmPolicy: 'open',
            allowFrom: ['*'],
            // The group is allowed and needs no @mention: `/svc …` is how the owner addresses svc there.
            groups: { [String(GROUP)]: { requireMention: false } },
          },
        },
        plugins: {
          load: { paths: [join(REPO_ROOT, 'harness', 'openclaw-plugin')] },
          entries: {
            'svc-gateway': {
              enabled: true,
              config: { command: process.execPath, args: [SVC_BIN, 'mcp'], env: { SVC_HOME: sandbox.svc.env.SVC_HOME!, SVC_LOG_LEVEL: 'error', SVC_GATEWAY_CREDENTIAL: gatewayCredential } },
            },
          },
        },
      },
      null,
      2,
    )}\n`,
  );
  gateway = spawn(sandbox.cli.launcher, ['gateway', 'run', '--bind', 'loopback', '--port', String(port)], {
    env: { ...sandbox.svc.env, HOME: sandbox.home, OPENCLAW_GATEWAY_TOKEN: GATEWAY_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  gateway.output = '';
  gateway.stdout!.on('data', (d) => (gateway.output += String(d)));
  gateway.stderr!.on('data', (d) => (gateway.output += String(d)));
  const client = new OpenClawClient({ url: gatewayUrl, token: GATEWAY_TOKEN, clientVersion: '0.0.0-conformance', timeoutMs: 5000 });
  await until(async () => (await client.health()).ok, 150_000, 'the OpenClaw gateway to accept the operator handshake');
}, 200_000);

afterAll(async () => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (gateway?.pid) {
    try {
      process.kill(-gateway.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await telegram?.close();
  sandbox?.cleanup();
});

describe('the real OpenClaw gateway', () => {
  test('svc gateway health passes the real operator handshake with the token, and fails without leaking a wrong one', async () => {
    const good = await sandbox.svc.run(['gateway', 'health', 'claw'], { timeoutMs: 60_000 });
    expect(good.stdout).toContain('gateway claw: ok (connected (protocol 4))');
    const wrong = 'not-the-gateway-token-9876543210';
    await sandbox.svc.run(['gateway', 'add', 'claw-wrong', '--kind', 'openclaw', '--url', gatewayUrl, '--token-env', 'OC_TOKEN'], { env: { OC_TOKEN: wrong } });
    const bad = await sandbox.svc.run(['gateway', 'health', 'claw-wrong'], { timeoutMs: 60_000 });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('NOT OK');
    expect(bad.stdout + bad.stderr).not.toContain(wrong);
  });

  test('push_to_human is delivered through OpenClaw to the Bot API and its platform message id recorded', async () => {
    const taskId = Number(/task (\d+) created/.exec((await sandbox.ok(['task', 'create', 'Needs the owner', '--project', 'demo'])).stdout)![1]);
    const server = await serve();
    const before = telegram.sent.length;
    const pushed = await server.api('POST', '/api/internal/harness/push', { taskId, message: 'Conformance: the build needs a decision', expectReply: true });
    expect(pushed.status).toBe(202);
    const shown = await until(async () => {
      const message = JSON.parse((await sandbox.ok(['harness', 'show', String(pushed.body.messageId), '--json'])).stdout);
      return message.deliveryStatus !== 'PENDING_DELIVERY' ? message : undefined;
    }, 120_000, 'the delivery');
    const sent = telegram.sent.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ chatId: String(OWNER) });
    expect(sent[0]!.text).toContain(`[[svc:task=${taskId}]]`);
    expect(shown).toMatchObject({ deliveryStatus: 'SENT', status: 'OPEN', delivery: { platform: 'telegram', platformMessageId: String(sent[0]!.messageId) } });
    process.stdout.write(`openclaw delivered message ${pushed.body.messageId} as Telegram message ${shown.delivery.platformMessageId}\n`);
    await stop(server);
  });

  test('an owner\'s "/svc work" through OpenClaw and the plugin becomes a reviewed child task whose FINAL_RESULT returns to the same chat and topic; a DM question is answered in the DM', async () => {
    await addQwen();
    const server = await serve({ SVC_WORKBENCH_POLL_MS: '200', SVC_WORKBENCH_BATCH_WINDOW_MS: '1000', SVC_TERMINAL_STOP_GRACE_MS: '2000' });
    const mcps: SvcMcp[] = [];
    try {
      // 1. The owner writes in a forum topic of a group; OpenClaw takes it from getUpdates and runs our
      // before_dispatch hook, which hands it to `svc mcp` (profile gateway) with the ids from the hook's
      // context; the hook's answer goes back to the same chat and topic, and no model is asked.
      const before = telegram.sent.length;
      const requestMessageId = telegram.receive({ chatId: GROUP, threadId: TOPIC, fromId: OWNER, text: '/svc work add a /health endpoint to demo' });
      const accepted = await until(async () => telegram.sent.slice(before).find((m) => m.text.includes('work request')), 90_000, 'the plugin\'s answer in the chat');
      expect(accepted).toMatchObject({ chatId: String(GROUP), threadId: String(TOPIC) });
      expect(accepted.text).toMatch(/^svc: your work request went to the project's Workbench \(request \d+\)/);
      const inboundId = Number(/request (\d+)/.exec(accepted.text)![1]);

      // 2. svc stored it once, under the platform's own chat and message id, as the owner's (its own
      // channel names 4242), routed it to demo and wrote the Workbench event; the Workbench is not
      // running yet. The owner's diagnosis, looked up by the Telegram message, shows it.
      const owner = await connectSvcMcp(sandbox.svc, { SVC_MCP_PROFILE: 'gateway', SVC_GATEWAY_CREDENTIAL: gatewayCredential });
      mcps.push(owner);
      const stagesOf = async () => {
        const diagnosis = await owner.call('diagnose_gateway_request', { platform: 'telegram', chatId: String(GROUP), senderId: String(OWNER), platformMessageId: String(requestMessageId) });
        expect(diagnosis.inboundId).toBe(inboundId);
        return Object.fromEntries((diagnosis.stages as { stage: string; state: string; detail?: string }[]).map((s) => [s.stage, `${s.state}${s.detail ? ` ${s.detail}` : ''}`]));
      };
      const routed = await stagesOf();
      expect(routed).toMatchObject({
        inbound: 'STORED message/work, attempt 1',
        routing: expect.stringMatching(/^PROCESSED .*GATEWAY_WORK_REQUEST/),
        workbench_event: expect.stringMatching(/^PENDING GATEWAY_WORK_REQUEST/),
        workbench_runtime: 'NOT_RUNNING',
      });

      // 3. Someone starts the project's Workbench (a stand-in CLI in a real PTY); when its first turn
      // ends, the work request arrives in its terminal as a review batch.
      const workbench = JSON.parse((await sandbox.ok(['task', 'show', /for task (\d+)/.exec(routed.workbench_event!)![1]!, '--json'])).stdout) as { id: number; title: string };
      expect(workbench.title).toBe('Workbench');
      await sandbox.ok(['task', 'start', String(workbench.id), '--connection', 'qwen']);
      let wb = await readTerminal(server, workbench.id, /qwen> /);
      const executionOf = async (taskId: number) => (JSON.parse((await sandbox.ok(['task', 'show', String(taskId), '--json'])).stdout).executions as { id: number; status: string }[])[0]!;
      await endTurn(workbench.id, (await executionOf(workbench.id)).id, 'wb-1', 'Ready.');
      const firstBatch = await readTerminal(server, workbench.id, /GATEWAY_WORK_REQUEST/, wb.cursor);
      expect(firstBatch.data).toContain(`inbound ${inboundId}: add a /health endpoint to demo`);
      const firstBatchId = Number(/\[svc review batch (\d+)/.exec(firstBatch.data)![1]);
      wb = firstBatch;

      // 4. The Workbench agent (its actions here, through the `svc mcp` its terminal gets: profile task,
      // its own task proven by the execution's credential) reads the batch, creates the child, binds it
      // to the request and starts it.
      const workbenchPid = (JSON.parse((await sandbox.ok(['task', 'show', String(workbench.id), '--json'])).stdout).executions as { pid: number }[])[0]!.pid;
      const agent = await connectSvcMcp(sandbox.svc, taskTerminalMcpEnv(workbenchPid));
      mcps.push(agent);
      // Acknowledged as soon as it shows in the terminal (the tool waits for the delivery record).
      const ack = (batchId: number) => agent.call('ack_workbench_batch', { batchId });
      expect(await ack(firstBatchId)).toMatchObject({ state: 'ACKED', events: 1 });
      const child = await agent.call('create_task', { projectId: 'demo', title: 'Add a /health endpoint', parentTaskId: workbench.id });
      // The gateway tools the Workbench calls are in its own (task) profile, for it alone.
      expect(await agent.call('confirm_gateway_task_created', { inboundId, taskId: child.id })).toEqual({ inboundId, taskId: child.id });
      const childExecution = await agent.call('start_task_execution', { taskId: child.id, connection: 'qwen' });
      expect(await agent.call('resolve_workbench_batch', { batchId: firstBatchId, note: `child task ${child.id} started` })).toMatchObject({ state: 'RESOLVED' });
      await endTurn(workbench.id, (await executionOf(workbench.id)).id, 'wb-2', `Started child task ${child.id}.`);

      // 5. The child works (a stand-in in its own PTY) and ends its turn with its report.
      await readTerminal(server, child.id, /qwen> /);
      await agent.call('send_task_terminal_input', { taskId: child.id, data: 'Add GET /health returning 200 to demo.\r' });
      await readTerminal(server, child.id, /You said: Add GET \/health/);
      await endTurn(child.id, childExecution.id, 'child-1', 'Added GET /health returning {"ok":true}; its test passes.');

      // 6. The child's report reaches the Workbench as the next review batch; it reviews it, closes the
      // child's terminal and completes the work: DONE and the FINAL_RESULT in one transaction.
      const secondBatch = await readTerminal(server, workbench.id, /CHILD_TURN_ENDED/, wb.cursor);
      expect(secondBatch.data).toContain(`CHILD_TURN_ENDED task ${child.id}`);
      expect(secondBatch.data).toContain('Added GET /health returning');
      const secondBatchId = Number(/\[svc review batch (\d+)/.exec(secondBatch.data)![1]);
      expect(secondBatchId).not.toBe(firstBatchId);
      expect(await ack(secondBatchId)).toMatchObject({ state: 'ACKED' });
      await agent.call('close_task_terminal', { taskId: child.id });
      await until(async () => (await executionOf(child.id)).status !== 'RUNNING', 30_000, 'the child terminal to close');
      const completed = await agent.call('complete_gateway_work', { taskId: child.id, result: 'Done: GET /health now answers {"ok":true}, with a test.' });
      expect(completed).toMatchObject({ taskId: child.id, status: 'DONE', completed: 'queued' });
      expect(await agent.call('resolve_workbench_batch', { batchId: secondBatchId, note: 'reviewed; work completed' })).toMatchObject({ state: 'RESOLVED' });

      // 7. The outbox sends it through OpenClaw to the same Telegram chat.
      const final = await until(async () => telegram.sent.slice(before).find((m) => m.text.includes('GET /health now answers')), 90_000, 'the FINAL_RESULT in the chat');
      // In the same chat and topic, as a reply to the request message.
      expect(final).toMatchObject({ chatId: String(GROUP), threadId: String(TOPIC), replyToMessageId: String(requestMessageId) });
      expect(final.text).toContain(`[[svc:task=${child.id}]]`);
      const delivered = await until(async () => {
        const shown = JSON.parse((await sandbox.ok(['harness', 'show', String(completed.messageId), '--json'])).stdout);
        return shown.deliveryStatus !== 'PENDING_DELIVERY' ? shown : undefined;
      }, 30_000, 'the FINAL_RESULT\'s delivery outcome');
      expect(delivered).toMatchObject({ kind: 'FINAL_RESULT', deliveryStatus: 'SENT', delivery: { platform: 'telegram', platformMessageId: String(final.messageId) } });
      expect(JSON.parse((await sandbox.ok(['task', 'show', String(child.id), '--json'])).stdout)).toMatchObject({ status: 'DONE', parentTaskId: workbench.id });
      // The chat saw exactly the hook's answer and the final result: nothing went to a model.
      expect(telegram.sent.slice(before).map((m) => m.messageId)).toEqual([accepted.messageId, final.messageId]);
      expect(await stagesOf()).toMatchObject({
        workbench_event: expect.stringMatching(/^BATCHED/),
        workbench_batch: `RESOLVED batch ${firstBatchId}`,
        workbench_runtime: 'RUNNING',
        task: `DONE task ${child.id}`,
        delivery: `SENT FINAL_RESULT message ${completed.messageId}`,
      });

      // 8. The same owner asks a question in a direct chat: OpenClaw's DM conversation id is the chat.
      // The running Workbench gets it after its next turn end and answers with complete_gateway_discussion;
      // the outbox sends the answer to the DM, with no topic.
      const beforeQuestion = telegram.sent.length;
      const questionMessageId = telegram.receive({ chatId: OWNER, fromId: OWNER, text: '/svc is the health endpoint deployed?' });
      const heard = await until(async () => telegram.sent.slice(beforeQuestion).find((m) => m.text.includes('question')), 60_000, 'the plugin\'s answer in the DM');
      expect(heard).toMatchObject({ chatId: String(OWNER) });
      expect(heard.threadId).toBeUndefined();
      const questionId = Number(/request (\d+)/.exec(heard.text)![1]);
      expect(questionId).not.toBe(inboundId);
      await endTurn(workbench.id, (await executionOf(workbench.id)).id, 'wb-3', 'Reviewed and completed the work request.');
      const thirdBatch = await readTerminal(server, workbench.id, /GATEWAY_DISCUSSION_REQUEST/, secondBatch.cursor);
      expect(thirdBatch.data).toContain(`inbound ${questionId}: is the health endpoint deployed?`);
      const thirdBatchId = Number(/\[svc review batch (\d+)/.exec(thirdBatch.data)![1]);
      // (The batch also reports the child's execution, ended by close_task_terminal, as EXECUTION_FAILED.)
      expect(await ack(thirdBatchId)).toMatchObject({ state: 'ACKED' });
      const answered = await agent.call('complete_gateway_discussion', { inboundId: questionId, text: 'Not yet: GET /health is merged, the deploy runs tonight.' });
      expect(answered).toMatchObject({ inboundId: questionId, replied: 'queued' });
      expect(await agent.call('resolve_workbench_batch', { batchId: thirdBatchId })).toMatchObject({ state: 'RESOLVED' });
      const reply = await until(async () => telegram.sent.slice(beforeQuestion).find((m) => m.text.includes('the deploy runs tonight')), 60_000, 'the discussion answer in the DM');
      expect(reply).toMatchObject({ chatId: String(OWNER), replyToMessageId: String(questionMessageId) });
      expect(reply.threadId).toBeUndefined();
      expect(reply.text).toContain(`[[svc:task=${workbench.id}]]`);
      expect(telegram.sent.slice(beforeQuestion).map((m) => m.messageId)).toEqual([heard.messageId, reply.messageId]);
      process.stdout.write(
        `telegram chat ${GROUP} topic ${TOPIC}: request ${requestMessageId}, accepted as ${accepted.messageId} ${JSON.stringify(accepted.text)}, final result ${final.messageId} ${JSON.stringify(final.text)}\n` +
          `telegram DM ${OWNER}: question ${questionMessageId}, accepted as ${heard.messageId} ${JSON.stringify(heard.text)}, answer ${reply.messageId} ${JSON.stringify(reply.text)}\n`,
      );
    } finally {
      for (const mcp of mcps) await mcp.close();
      await stop(server);
    }
  }, 170_000);
});

describe('a person replies in Telegram through the real OpenClaw', () => {
  test('a Telegram reply to the question (no token typed) is typed into the same live PTY, the execution RUNNING and the ask answered; a second reply is told it came late', async () => {
    await addQwen();
    const server = await serve({ SVC_TERMINAL_STOP_GRACE_MS: '2000' });
    try {
      const taskId = Number(/task (\d+) created/.exec((await sandbox.ok(['task', 'create', 'Needs a decision', '--project', 'demo'])).stdout)![1]);
      await sandbox.ok(['task', 'start', String(taskId), '--connection', 'qwen']);
      const banner = await readTerminal(server, taskId, /qwen> /);
      const executionOf = async () => (JSON.parse((await sandbox.ok(['task', 'show', String(taskId), '--json'])).stdout).executions as { id: number; status: string; pid: number }[])[0]!;
      // The task's agent asks through the svc mcp its terminal is wired with (its execution's credential).
      const agent = await connectSvcMcp(sandbox.svc, taskTerminalMcpEnv((await executionOf()).pid));
      const before = telegram.sent.length;
      const asked = await agent.call('push_to_human', { message: 'Which database should the service use?', expectReply: true });
      await agent.close();
      const question = await until(async () => telegram.sent.slice(before).find((m) => m.text.includes('Which database')), 90_000, 'the question in the chat');
      expect(question).toMatchObject({ chatId: String(OWNER) });
      await until(async () => (await executionOf()).status === 'PAUSED' || undefined, 30_000, 'the execution PAUSED');
      const parked = await executionOf();

      // The owner answers with Telegram's reply, typing no token.
      telegram.receive({ chatId: OWNER, fromId: OWNER, text: 'use postgres', replyTo: { messageId: Number(question.messageId), text: question.text } });
      const ack = await until(async () => telegram.sent.slice(before).find((m) => m.text.includes('your answer reached')), 90_000, "the plugin's answer in the chat");
      expect(ack).toMatchObject({ chatId: String(OWNER), text: `svc: your answer reached task ${taskId}; it continues.` });
      const typed = await readTerminal(server, taskId, /You said: /, banner.cursor);
      expect(typed.data).toContain('use postgres');
      expect(await executionOf()).toMatchObject({ id: parked.id, status: 'RUNNING', pid: parked.pid });
      expect(JSON.parse((await sandbox.ok(['harness', 'show', String(asked.messageId), '--json'])).stdout)).toMatchObject({
        status: 'ANSWERED',
        ask: { reply: 'use postgres', repliedVia: 'gateway', resumeOutcome: 'already_running' },
      });

      telegram.receive({ chatId: OWNER, fromId: OWNER, text: 'actually, sqlite', replyTo: { messageId: Number(question.messageId), text: question.text } });
      const late = await until(async () => telegram.sent.slice(before).find((m) => m.text.includes('already answered')), 90_000, 'the late note in the chat');
      expect(late.text).toContain(`task ${taskId}'s question was already answered`);
      await new Promise((r) => setTimeout(r, 1500));
      expect((await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${typed.cursor}`)).body.data).not.toContain('sqlite');
      // The chat saw the question, the acknowledgement and the late note: nothing went to a model.
      expect(telegram.sent.slice(before).map((m) => m.messageId)).toEqual([question.messageId, ack.messageId, late.messageId]);
      await sandbox.ok(['task', 'stop', String(taskId)]);
    } finally {
      await stop(server);
    }
  }, 170_000);

  test('a question about a finished task, as a reply to its result, is answered in the chat and no terminal is touched', async () => {
    const server = await serve();
    // The work request, its child task and the reviewed result, as the gateway plugin (with its
    // credential) and the Workbench record them.
    const workbench = await connectSvcMcp(sandbox.svc, { SVC_MCP_PROFILE: 'full', SVC_GATEWAY_CREDENTIAL: gatewayCredential });
    try {
      const work = await workbench.call('route_gateway_message', {
        platform: 'telegram',
        chatId: String(OWNER),
        senderId: String(OWNER),
        platformMessageId: '77012',
        text: 'add CSV export',
        kind: 'work',
      });
      const child = await workbench.call('create_task', { projectId: 'demo', title: 'CSV export', parentTaskId: work.workbenchTaskId });
      // Over MCP only the Workbench's own terminal may record these; the localhost routes take the
      // install token (the person's authority), which stands in for the Workbench here.
      expect((await server.api('PATCH', '/api/internal/harness/gateway', { inboundId: work.inboundId, taskId: child.id })).status).toBe(200);
      const before = telegram.sent.length;
      expect((await server.api('PUT', '/api/internal/harness/gateway/work', { taskId: child.id, result: 'Added svc export --csv and its test.' })).status).toBe(200);
      const result = await until(async () => telegram.sent.slice(before).find((m) => m.text.includes('svc export --csv')), 90_000, 'the result in the chat');

      telegram.receive({ chatId: OWNER, fromId: OWNER, text: `what did task ${child.id} change?`, replyTo: { messageId: Number(result.messageId), text: result.text } });
      const answer = await until(async () => telegram.sent.slice(before).find((m) => m.text.includes(`Task ${child.id}`)), 90_000, 'the answer in the chat');
      expect(answer.text).toContain(`Task ${child.id} "CSV export" is DONE.`);
      expect(answer.text).toContain('Latest result: Added svc export --csv and its test.');
      // No terminal was started or written to, and nothing but the answer went to the chat.
      expect(JSON.parse((await sandbox.ok(['task', 'show', String(child.id), '--json'])).stdout)).toMatchObject({ status: 'DONE', executions: [] });
      expect(telegram.sent.slice(before).map((m) => m.messageId)).toEqual([result.messageId, answer.messageId]);
    } finally {
      await workbench.close();
      await stop(server);
    }
  }, 170_000);
});
