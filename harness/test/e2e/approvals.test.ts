// A task CLI's permission requests under a real `svc serve`: the Claude Code stand-in in a real task
// terminal calls its PermissionRequest hook (harness/hooks/approval-hook.cjs) as Claude Code does;
// the request is relayed to the task's chat (the Hermes stand-in), answered over HTTP and the CLI,
// parked and typed back, and survives kill -9 of the service before and after its answer.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, waitFor, type SvcSandbox } from '../../../test/support/svc-process.js';
import { hermesChat } from '../../../test/support/hermes-chat.js';
import { svcOk } from '../../../test/support/qwen-demo-project.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../../../test/support/svc-serve.js';

const CLAUDE_STAND_IN = join(REPO_ROOT, 'test/fake-clis/claude-code');
const HERMES = join(REPO_ROOT, 'test/fake-clis/hermes/hermes');
const HOOK = join(REPO_ROOT, 'harness/hooks/approval-hook.cjs');
/** A PermissionRequest hook input recorded from the real CLI. */
const recorded = (cli: 'claude-code' | 'codex') => JSON.parse(readFileSync(join(REPO_ROOT, 'test/fake-clis', cli, 'recordings/permission-request-hook-input.json'), 'utf8')) as { cwd: string };

let svc: SvcSandbox;
const serves: ServeProcess[] = [];
const ok = (args: string[]) => svcOk(svc, args);
const ranFile = () => join(svc.home, 'ran.log');
const ran = () => (existsSync(ranFile()) ? readFileSync(ranFile(), 'utf8').trim().split('\n').filter(Boolean) : []);
const hermesLog = () => join(svc.home, 'hermes.log');
const relayed = () => (existsSync(hermesLog()) ? readFileSync(hermesLog(), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { message: string }) : []);

// The hook parks at once (terminals.approvalWaitSec 0): the CLI's turn ends, the outcome is typed in later.
async function serve(env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const started = await startServe(svc, {
    SVC_TERMINAL_APPROVAL_WAIT_SEC: '0',
    SVC_TERMINAL_PROMPT_WAIT_MS: '500',
    SVC_TERMINAL_STOP_GRACE_MS: '2000',
    SVC_TERMINAL_INTERRUPT_MS: '300',
    SVC_OUTBOX_POLL_MS: '200',
    CLAUDE_FAKE_RAN_FILE: ranFile(),
    HERMES_FAKE_LOG: hermesLog(),
    ...env,
  });
  serves.push(started);
  return started;
}

// Nobody watches these tasks: their CLIs' permission requests are svc's to take to a person.
const newTask = async (title: string, watched = false) =>
  Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'demo', ...(watched ? [] : ['--unattended'])]))![1]);
const approvals = async (server: ServeProcess, taskId: number) => (await server.api('GET', `/api/approvals?taskId=${taskId}`)).body as { items: any[]; counts: any };
const openOne = (server: ServeProcess, taskId: number) =>
  waitFor(async () => (await approvals(server, taskId)).items.find((a) => a.status === 'OPEN'), 20_000, 'an open approval request');
const type = (server: ServeProcess, taskId: number, line: string) => server.api('POST', `/api/internal/terminal/${taskId}/input`, { data: line, submit: true });

const hermes = (credential: string, messages: object[]) => hermesChat(svc, credential, messages);

/** Runs the hook as a CLI does: the hook input on stdin, the task terminal's environment, the CLI's hook timeout as its argument. */
function runHook(taskId: number, input: unknown, timeoutSec: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, SVC_HOME: svc.home, SVC_TASK_ID: String(taskId), SVC_SIGNAL_DIR: join(svc.home, 'signals') };
    const child = spawn(process.execPath, [HOOK, String(timeoutSec)], { env });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim() === '' ? undefined : JSON.parse(out)));
    child.stdin.end(JSON.stringify(input));
  });
}

beforeAll(async () => {
  svc = createSvcSandbox([CLAUDE_STAND_IN]);
  const repo = join(svc.home, 'repo');
  mkdirSync(repo);
  await ok(['ext', 'enable', 'svc-official.claude-code', '--yes']);
  await ok(['connection', 'add', 'claude', '--provider', 'svc-official.claude-code']);
  await ok(['workspace', 'create', 'main']);
  await ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', repo]);
  await ok(['gateway', 'add', 'herm', '--kind', 'hermes', '--command', HERMES]);
  await ok(['channel', 'add', 'tg', '--gateway', 'herm', '--platform', 'telegram', '--to', '4242', '--owner', '4242']);
}, 120_000);

afterAll(() => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

describe('permission requests of a task CLI', () => {
  let server: ServeProcess;
  let taskId: number;
  let cursor = 0;
  const until = async (text: string) => {
    const read = await readTerminalUntil(server, taskId, text, cursor);
    cursor = read.cursor ?? cursor;
    return read.data as string;
  };

  test('a hook that can wait gets the answer in the CLI format it was asked in (Claude Code and Codex input, byte for byte)', async () => {
    server = await serve();
    const hookTask = await newTask('Hook only');
    // The PermissionRequest input the real Claude Code 2.1.197 sent (test/fake-clis/claude-code/recordings).
    const claudeInput = recorded('claude-code');
    const waiting = runHook(hookTask, claudeInput, 40);
    const open = await openOne(server, hookTask);
    expect(open).toMatchObject({ toolName: 'Bash', cwd: claudeInput.cwd, shown: expect.stringContaining('Command: echo allowed >> ran.log') });
    expect((await server.api('POST', '/api/approvals/answer', { approvalId: open.id, answer: 'allow_once' })).status).toBe(200);
    expect(await waiting).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });

    // A task a person watches: no verdict, so the CLI's own prompt opens in the terminal they watch.
    const watched = await newTask('Watched', true);
    expect(await runHook(watched, claudeInput, 40)).toBeUndefined();
    expect((await approvals(server, watched)).counts.total).toBe(0);

    // The real Codex 0.169.0's input (no tool_use_id), answered with a deny and its reason.
    const codexInput = recorded('codex');
    const denied = runHook(hookTask, codexInput, 40);
    const second = await openOne(server, hookTask);
    await ok(['task', 'approve', String(second.id), 'deny', 'keep the marker']);
    expect(await denied).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'Denied by the person at the terminal: keep the marker' } },
    });
  }, 120_000);

  test('relayed to the task channel; an allow-once answer is typed into the parked terminal and the retried command runs once', async () => {
    taskId = await newTask('Install things');
    await ok(['task', 'start', String(taskId), '--connection', 'claude']);
    await until('Claude Code (stand-in)');
    await type(server, taskId, 'run: npm install');
    const parked = await until('denied: Waiting for approval #');
    const open = await openOne(server, taskId);
    expect(parked).toContain(`Waiting for approval #${open.id}`);
    expect(open).toMatchObject({ cli: 'svc-official.claude-code', toolName: 'Bash', parked: true, shown: expect.stringContaining('Command: npm install') });
    // The board reads it from the task: it needs you while the request is open.
    expect((await server.api('GET', `/api/tasks/${taskId}`)).body).toMatchObject({ attention: 'needs_you', openApprovals: 1 });
    const relay = await waitFor(() => relayed().find((call) => call.message.includes(`approval #${open.id}`)), 20_000, 'the relay');
    expect(relay.message).toContain('│ Command: npm install');
    expect(relay.message).toContain(`[[svc:task=${taskId}]]`);
    expect(ran()).toEqual([]);

    const answered = await server.api('POST', '/api/approvals/answer', { approvalId: open.id, answer: 'allow_once' });
    expect(answered).toMatchObject({ status: 200, body: { status: 'ALLOWED', answeredVia: 'http' } });
    await until(`Approval #${open.id} (Tool: Bash, Command: npm install) was allowed once`);
    await type(server, taskId, 'run: npm install');
    await until('Bash(npm install) ran');
    expect(ran()).toEqual(['npm install']);
    expect((await server.api('GET', `/api/tasks/${taskId}`)).body).toMatchObject({ openApprovals: 0 });
    // Once: the same command asks again, and a deny's reason reaches the CLI.
    await type(server, taskId, 'run: npm install');
    await until('denied: Waiting for approval #');
    const again = await openOne(server, taskId);
    await ok(['task', 'approve', String(again.id), 'deny', 'one install is enough']);
    await until('was denied by the person at the terminal via cli: one install is enough');
    expect(ran()).toEqual(['npm install']);
  }, 120_000);

  test('allow for this task lets the identical call through without asking; a changed command asks again; 100 racing answers apply one', async () => {
    await type(server, taskId, 'run: git push origin main');
    const open = await openOne(server, taskId);
    await ok(['task', 'approve', String(open.id), 'task']);
    await until('was allowed for the rest of this task');
    await type(server, taskId, 'run: git push origin main');
    await until('Bash(git push origin main) ran');
    await type(server, taskId, 'run: git push origin main');
    await until('Bash(git push origin main) ran');
    expect(ran().filter((line) => line === 'git push origin main')).toHaveLength(2);
    const listed = await approvals(server, taskId);
    expect(listed.items.filter((a) => a.answer === 'rule')).toHaveLength(2);

    await type(server, taskId, 'run: git push --force origin main');
    const changed = await openOne(server, taskId);
    expect(changed.shown).toContain('git push --force origin main');
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => server.api('POST', '/api/approvals/answer', { approvalId: changed.id, answer: i % 2 ? 'deny' : 'allow_once', reason: 'no force pushes', via: i % 2 ? 'web' : 'http' })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const lost = answers.filter((a) => a.status !== 200);
    expect(lost).toHaveLength(99);
    for (const loss of lost) expect(loss).toMatchObject({ status: 409, body: { error: { code: 'approval_answered' } } });
    const audit = JSON.parse(await ok(['task', 'approvals', String(taskId), '--json']));
    expect(audit.counts).toMatchObject({ open: 0, total: listed.counts.total + 1 });
    expect(await ok(['task', 'approvals', String(taskId)])).toMatch(/git push --force origin main\s+(allow once|deny) by a person/);
  }, 120_000);

  test("a chat reply to the relayed message answers it through the Hermes plugin, for the owner only; a second answer is told who answered", async () => {
    await type(server, taskId, 'run: make lint');
    const open = await openOne(server, taskId);
    const relay = await waitFor(async () => {
      const message = (await server.api('GET', `/api/harness/messages/${open.messageId}`)).body;
      return message?.delivery ? message : undefined;
    }, 20_000, 'the relay delivered');
    const credential = (JSON.parse(await ok(['gateway', 'credential', 'herm', '--json'])) as { credential: string }).credential;
    const dm = (messageId: string, userId: string, text: string) => ({
      platform: 'telegram', chat_id: '4242', chat_type: 'dm', user_id: userId, message_id: messageId, text,
      reply_to_message_id: relay.delivery.platformMessageId, reply_to_text: relay.body,
    });
    const outcomes = await hermes(credential, [dm('901', '555', 'allow'), dm('902', '4242', 'allow'), dm('903', '4242', 'deny too late')]);
    expect(outcomes.map((o) => o.sent.map((s) => s.content))).toEqual([
      // Someone else in the owner's chat is not svc's to answer: the message goes on to Hermes, the request stays open.
      [],
      [`svc: approval #${open.id} allowed; task ${taskId} is told.`],
      [expect.stringContaining(`approval #${open.id} was already answered (allowed) by the owner (telegram 4242) via gateway`)],
    ]);
    await until(`Approval #${open.id} (Tool: Bash, Command: make lint) was allowed once by the owner (telegram 4242) via gateway`);
    await type(server, taskId, 'run: make lint');
    await until('Bash(make lint) ran');
  }, 120_000);

  test('kill -9 while the request waits, and again after its answer before it is typed: nothing is lost and the answer is applied once', async () => {
    await type(server, taskId, 'run: make deploy');
    const open = await openOne(server, taskId);
    server.child.kill('SIGKILL');
    await server.exited;

    // The request outlived the service; its answer kills the next one before anything is typed.
    const crashing = await serve({ SVC_TEST_CRASH_AT: 'approval:answered' });
    expect((await approvals(crashing, taskId)).items.find((a) => a.id === open.id)).toMatchObject({ status: 'OPEN', parked: true });
    await crashing.api('POST', '/api/approvals/answer', { approvalId: open.id, answer: 'allow_once' }).catch(() => undefined);
    expect(await crashing.exited).toMatchObject({ signal: 'SIGKILL' });

    server = await serve();
    cursor = 0;
    await until(`Approval #${open.id} (Tool: Bash, Command: make deploy) was allowed once`);
    // Marked typed with its Enter, a moment after the text shows.
    const after = await waitFor(async () => (await approvals(server, taskId)).items.find((a) => a.id === open.id && a.delivery === 'delivered'), 20_000, 'the outcome typed');
    expect(after).toMatchObject({ status: 'ALLOWED', answer: 'allow_once' });
    await type(server, taskId, 'run: make deploy');
    await until('Bash(make deploy) ran');
    expect(ran().filter((line) => line === 'make deploy')).toHaveLength(1);
    const read = await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=0`);
    // Typed once: the CLI answered the outcome once (the terminal also echoes what was typed).
    expect(read.body.data.split(`you said "Approval #${open.id} (`).length - 1).toBe(1);
    await ok(['task', 'stop', String(taskId)]);
  }, 180_000);
});
