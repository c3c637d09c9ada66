// Task terminals started by the real service (in this process, HTTP on 127.0.0.1) are wired for
// unattended work: what the provider is asked to attach, the signal file, the turn hooks reaching
// the service (run as the real hook script), and typing a message as the CLI's next one.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { SessionAttachments } from '@svc-org/ai-sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { submitReply } from '@svc-org/harness/messaging/submit-reply';
import { routingStores } from '@svc-org/harness/routing';
import { SystemConfigStore } from '../../src/platform/config/index.js';
import { transaction } from '../../src/platform/db/index.js';
import { SYSTEM_CONFIG_KEYS } from '@svc-org/app/system-config-keys';
import { startService, type RunningService } from '@svc-org/app/start-service';
import { StopNotificationRowSchema } from '../../src/features/domain/index.js';
import { DEFAULT_TASK_DIRECTIVES, verifyTaskCredential } from '../../src/features/terminals/index.js';
import { locateHookFiles as locateHarnessFiles } from '@svc-org/harness/plugin/locate-hook-files';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { FIXTURE_CLIS, SVC_BIN, waitFor } from '../../../test/support/svc-process.js';

// A stand-in for an interactive AI CLI as interactive-ptys.md measured them: it switches bracketed
// paste on once its prompt is drawn, takes a paste and then a separate Enter as one message, runs
// its prompt-submit hook, answers after a while, then runs its stop hook. The hooks are the ones
// the host attached (the echo provider hands them over in ECHO_ATTACHMENTS).
const STAND_IN_CLI = `#!/usr/bin/env node
const { spawnSync } = require('node:child_process');
if (process.argv.includes('--version')) { console.log('svc-echo-cli 1.2.3'); process.exit(0); }
const hooks = JSON.parse(process.env.ECHO_ATTACHMENTS || '{}').hooks || {};
const run = (hook, input) => hook && spawnSync(hook.command[0], hook.command.slice(1), { input: JSON.stringify(input), stdio: ['pipe', 'ignore', 'inherit'] });
process.stdin.setRawMode(true);
let pending = '';
let pasted = '';
let turn = 0;
setTimeout(() => process.stdout.write('stand-in ready\\r\\n> \\x1b[?2004h'), 300);
process.stdin.on('data', (chunk) => {
  pending += chunk.toString('utf8');
  for (;;) {
    const start = pending.indexOf('\\x1b[200~');
    const end = pending.indexOf('\\x1b[201~');
    if (start !== -1 && end > start) { pasted += pending.slice(start + 6, end); pending = pending.slice(end + 6); continue; }
    const enter = pending.indexOf('\\r');
    if (enter === -1) return;
    const message = pasted + pending.slice(0, enter);
    pending = pending.slice(enter + 1);
    pasted = '';
    turn += 1;
    const turnId = 'turn-' + turn;
    run(hooks.promptSubmit, { hook_event_name: 'UserPromptSubmit', session_id: 'stand-in-session', turn_id: turnId, prompt: message });
    process.stdout.write('got: ' + JSON.stringify(message) + '\\r\\n');
    setTimeout(() => {
      run(hooks.stop, { hook_event_name: 'Stop', session_id: 'stand-in-session', turn_id: turnId });
      process.stdout.write('done ' + turnId + '\\r\\n> ');
    }, 1500);
  }
});
`;

// The same stand-in as a resumed session that prints at once but draws its prompt only 2.5 s later,
// long after its output went quiet.
const LATE_PROMPT_CLI = STAND_IN_CLI.replace(
  "setTimeout(() => process.stdout.write('stand-in ready\\r\\n> \\x1b[?2004h'), 300);",
  "process.stdout.write('stand-in resuming\\r\\n'); setTimeout(() => process.stdout.write('stand-in ready\\r\\n> \\x1b[?2004h'), 2500);",
);

let service: RunningService;
let home: string;
let repo: string;
let projectId: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-wiring-'));
  repo = join(home, 'repo');
  mkdirSync(repo);
  const standIn = join(home, 'stand-in-cli');
  writeFileSync(standIn, STAND_IN_CLI);
  chmodSync(standIn, 0o755);
  const latePrompt = join(home, 'late-prompt-cli');
  expect(LATE_PROMPT_CLI).not.toBe(STAND_IN_CLI);
  writeFileSync(latePrompt, LATE_PROMPT_CLI);
  chmodSync(latePrompt, 0o755);
  service = await startService({
    env: { ...process.env, SVC_HOME: home, SVC_PORT: '0', PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}` },
    builtins: false,
    terminalSettings: { stopGraceMs: 1000, interruptMs: 100 },
  });
  const { extensions, connections, domain } = service.services;
  const { record } = await extensions.devAdd(copyFixtureProvider('echo'));
  await extensions.enable(record.id, async () => true);
  connections.add({ name: 'echo', providerId: record.id });
  connections.add({ name: 'stand-in', providerId: record.id, commandOverride: standIn });
  connections.add({ name: 'late-prompt', providerId: record.id, commandOverride: latePrompt });
  const workspace = domain.workspaces.create({ name: 'main' });
  projectId = domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: repo }).id;
});
afterAll(async () => {
  await service.close();
  rmSync(home, { recursive: true, force: true });
});

const task = (title: string, extra: { parentTaskId?: number; unattended?: boolean } = {}) =>
  service.services.domain.tasks.create({ projectId, title, parentTaskId: extra.parentTaskId ?? null, unattended: extra.unattended ?? false });
const screen = (taskId: number) => service.terminals.read(taskId, undefined, 1 << 20).data.toString('utf8');

/** What the provider was asked to attach, as the echo provider handed it to its CLI (read once the CLI runs). */
async function attachmentsOf(taskId: number): Promise<SessionAttachments> {
  await waitFor(() => screen(taskId).includes('echo-cli interactive'), 10_000, 'the CLI');
  return JSON.parse(envOf(taskId).ECHO_ATTACHMENTS!) as SessionAttachments;
}

function envOf(taskId: number): Record<string, string> {
  const pid = service.terminals.summary(taskId)!.pid;
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe('what a task terminal is started with', () => {
  test('the svc MCP server (profile task, the task id), the turn hooks, the ladder hook, the approval hook and the directive', async () => {
    const t = task('wired');
    await service.terminals.start(t.id, { connection: 'echo' });
    const files = locateHarnessFiles();
    const attachments = await attachmentsOf(t.id);
    expect(attachments.mcpServers).toEqual([
      {
        name: 'svc',
        command: process.execPath,
        args: [files.svcBin, 'mcp'],
        env: { SVC_HOME: home, SVC_TASK_ID: String(t.id), SVC_MCP_PROFILE: 'task', SVC_TASK_SECRETS_FILE: expect.stringMatching(/\/\.svc-task-secrets\.json$/) },
      },
    ]);
    // The execution's credential is in the run's owner-only secrets file, not in what the provider
    // passes on (arguments show in `ps`); it proves the task while it runs; only its hash is stored.
    const secretsFile = attachments.mcpServers![0]!.env!.SVC_TASK_SECRETS_FILE!;
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    const credential = (JSON.parse(readFileSync(secretsFile, 'utf8')) as { SVC_TASK_CREDENTIAL: string }).SVC_TASK_CREDENTIAL;
    expect(credential).toMatch(/^svct_[\w-]{43}$/);
    expect(JSON.stringify(attachments)).not.toContain(credential);
    const execution = service.services.domain.executions.liveForTask(t.id)!;
    expect(verifyTaskCredential(service.services.db, credential, t.id)).toEqual({ taskId: t.id, executionId: execution.id });
    expect(JSON.stringify(service.services.db.prepare('SELECT * FROM execution_credentials').all())).not.toContain(credential);
    expect(attachments.hooks).toEqual({
      stop: { command: [process.execPath, files.turnHook, 'stop'], timeoutSec: 15 },
      promptSubmit: { command: [process.execPath, files.turnHook, 'prompt'], timeoutSec: 15 },
      preToolUse: { command: [process.execPath, files.ladderHook], toolNames: ['AskUserQuestion', 'request_user_input', 'ask_user', 'ask_user_question'], timeoutSec: 15 },
      // The CLI's permission requests: the hook waits for a person until shortly before its timeout (terminals.approvalWaitSec).
      permissionRequest: { command: [process.execPath, files.approvalHook, '120'], timeoutSec: 120 },
    });
    expect(attachments.directive).toBe(DEFAULT_TASK_DIRECTIVES.system);
    for (const phrase of ['no parent and a person is watching', 'no parent and nobody is watching', 'has a parent and a person is watching', 'has a parent and nobody is watching']) {
      expect(attachments.directive).toContain(phrase);
    }
    const env = envOf(t.id);
    expect(env).toMatchObject({ SVC_HOME: home, SVC_TASK_ID: String(t.id), SVC_SIGNAL_DIR: join(home, 'signals') });
    expect(env.SVC_HAS_PARENT).toBeUndefined();
    expect(env.SVC_MCP_PROFILE).toBeUndefined();
    // The CLI itself and its hooks do not carry it: only the MCP server it starts does.
    expect(env.SVC_TASK_CREDENTIAL).toBeUndefined();
    await service.terminals.stop(t.id);
    await service.terminals.waitForEnd(t.id);
    expect(() => verifyTaskCredential(service.services.db, credential, t.id)).toThrow(expect.objectContaining({ code: 'task_credential_invalid' }));
    expect(existsSync(secretsFile)).toBe(false);
  });

  test('a Workbench (a task with children) also gets task.workbenchDirective; system config overrides the defaults', async () => {
    const config = new SystemConfigStore(service.services.db, SYSTEM_CONFIG_KEYS);
    config.set('task.systemDirective', 'Custom ladder text.');
    try {
      const parent = task('workbench');
      task('child of the workbench', { parentTaskId: parent.id });
      await service.terminals.start(parent.id, { connection: 'echo' });
      expect((await attachmentsOf(parent.id)).directive).toBe(`Custom ladder text.\n\n${DEFAULT_TASK_DIRECTIVES.workbench}`);
      await service.terminals.stop(parent.id);
    } finally {
      config.unset('task.systemDirective');
    }
  });

  test("a project's Workbench made by the routing, before it has any child, also gets task.workbenchDirective", async () => {
    // The same call the gateway routing makes when a project's first discussion arrives.
    const workbench = transaction(service.services.db, () => routingStores(service.services).workbench.ensureWorkbench(projectId));
    expect(service.services.domain.tasks.list({ parentTaskId: workbench })).toEqual([]);
    await service.terminals.start(workbench, { connection: 'echo' });
    expect((await attachmentsOf(workbench)).directive).toBe(`${DEFAULT_TASK_DIRECTIVES.system}\n\n${DEFAULT_TASK_DIRECTIVES.workbench}`);
    await service.terminals.stop(workbench);
  });

  test('what the provider cannot attach is recorded on the execution and logged', async () => {
    const t = task('unsupported');
    const execution = await service.terminals.start(t.id, { connection: 'echo' });
    expect(execution.unsupportedAttachments).toEqual([{ kind: 'directive', reason: 'the echo CLI has no system instructions' }]);
    expect(service.services.domain.executions.get(execution.id).unsupportedAttachments).toEqual(execution.unsupportedAttachments);
    expect(readFileSync(join(home, 'logs', 'svc.log'), 'utf8')).toContain('could not attach part of the task terminal wiring');
    await service.terminals.stop(t.id);
    // `svc task show` tells the person.
    const shown = await runHookProcess([SVC_BIN, 'task', 'show', String(t.id)], '', { SVC_HOME: home });
    expect(shown.stdout).toContain(`not attached directive: the echo CLI has no system instructions (execution ${execution.id})`);
  });

  test('files the provider asks for are written into a private run folder before the CLI starts, and removed when it ends', async () => {
    const t = task('run folder');
    await service.terminals.start(t.id, { connection: 'echo' });
    const attachments = await attachmentsOf(t.id);
    const file = envOf(t.id).ECHO_ATTACHMENTS_FILE!;
    expect(file.startsWith(join(home, 'runs', `task-${t.id}-`))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(attachments);
    await service.terminals.stop(t.id);
    expect(existsSync(dirname(file))).toBe(false);
  });

  test('a start writes the signal file from the unattended column (its rollback shadow), and removes it for an attended task', async () => {
    const t = task('unattended', { unattended: true });
    const signal = join(home, 'signals', `unattended-${t.id}`);
    rmSync(signal, { force: true });
    await service.terminals.start(t.id, { connection: 'echo' });
    expect(existsSync(signal)).toBe(true);
    await service.terminals.stop(t.id);
    service.services.db.prepare('UPDATE tasks SET unattended = 0 WHERE id = ?').run(t.id);
    await service.terminals.resume(t.id);
    expect(existsSync(signal)).toBe(false);
    await service.terminals.stop(t.id);
  });

  test('closing an unattended task removes its signal file; reopening it restores the file', () => {
    const { tasks } = service.services.domain;
    const t = task('closing', { unattended: true });
    const signal = join(home, 'signals', `unattended-${t.id}`);
    expect(existsSync(signal)).toBe(true);
    tasks.update(t.id, { status: 'DONE' });
    expect(existsSync(signal)).toBe(false);
    tasks.update(t.id, { status: 'TODO' });
    expect(existsSync(signal)).toBe(true);
    tasks.update(t.id, { unattended: false });
    expect(existsSync(signal)).toBe(false);
  });
});

function runHookProcess(args: string[], input: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout }));
    child.stdin.end(input);
  });
}

/** Every stop notification of a task, fanned out or not (the service's Workbench fans them out as they come). */
function notificationsOf(taskId: number) {
  return service.services.db
    .prepare('SELECT * FROM stop_notifications WHERE task_id = ? ORDER BY id')
    .all(taskId)
    .map((row) => StopNotificationRowSchema.parse(row));
}

describe('turn hooks reaching the service', () => {
  // Asynchronous: the service answering the hook runs in this very process.
  function runTurnHook(taskId: number, executionId: number, args: string[], input = '') {
    return runHookProcess([locateHarnessFiles().turnHook, ...args], input, { SVC_HOME: home, SVC_TASK_ID: String(taskId), SVC_EXECUTION_ID: String(executionId) });
  }

  test("Codex's Stop hook and its notify callback for the same turn leave one notification", async () => {
    const t = task('codex turn');
    const execution = await service.terminals.start(t.id, { connection: 'echo' });
    const stopInput = { session_id: 'thread-1', turn_id: 'turn-9', hook_event_name: 'Stop', last_assistant_message: 'done' };
    const notify = { type: 'agent-turn-complete', 'thread-id': 'thread-1', 'turn-id': 'turn-9', cwd: repo, 'last-assistant-message': 'done' };
    const first = await runTurnHook(t.id, execution.id, ['stop'], JSON.stringify(stopInput));
    const second = await runTurnHook(t.id, execution.id, ['stop', 'codex-notify', JSON.stringify(notify)]);
    expect([first.status, first.stdout, second.status, second.stdout]).toEqual([0, '', 0, '']);
    const rows = notificationsOf(t.id);
    expect(rows).toEqual([expect.objectContaining({ executionId: execution.id, turnId: 'turn-9', sessionId: 'thread-1', source: 'hook', payload: stopInput })]);
    // The hook's session id is what a later resume continues.
    expect(service.services.domain.executions.get(execution.id).sessionId).toBe('thread-1');
    // A notify for another thread of the same process (Codex's title generator) is not this session's turn.
    await runTurnHook(t.id, execution.id, ['stop', 'codex-notify', JSON.stringify({ ...notify, 'thread-id': 'title-thread', 'turn-id': 'turn-10' })]);
    // A notify arriving first is kept, and the Stop hook after it is the duplicate.
    await runTurnHook(t.id, execution.id, ['stop', 'codex-notify', JSON.stringify({ ...notify, 'turn-id': 'turn-11' })]);
    await runTurnHook(t.id, execution.id, ['stop'], JSON.stringify({ ...stopInput, turn_id: 'turn-11' }));
    const after = notificationsOf(t.id);
    expect(after.map((row) => [row.turnId, row.source])).toEqual([
      ['turn-9', 'hook'],
      ['turn-11', 'codex-notify'],
    ]);
    await service.terminals.stop(t.id);
  });

  test("a message starts a turn and only the Stop hook ends it; Codex's notify for its title thread does not", async () => {
    const t = task('turn state');
    const execution = await service.terminals.start(t.id, { connection: 'stand-in' });
    await waitFor(() => service.terminals.summary(t.id)?.turn === 'idle', 10_000, 'the prompt');
    await runTurnHook(t.id, execution.id, ['prompt'], JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'thread-main', turn_id: 'turn-1', prompt: 'hi' }));
    expect(service.terminals.summary(t.id)?.turn).toBe('busy');
    expect(service.services.domain.executions.get(execution.id).sessionId).toBe('thread-main');
    const title = { type: 'agent-turn-complete', 'thread-id': 'thread-title', 'turn-id': 'turn-title', 'last-assistant-message': 'Scripted thread' };
    await runTurnHook(t.id, execution.id, ['stop', 'codex-notify', JSON.stringify(title)]);
    expect(service.terminals.summary(t.id)?.turn).toBe('busy');
    expect(notificationsOf(t.id)).toEqual([]);
    await runTurnHook(t.id, execution.id, ['stop'], JSON.stringify({ hook_event_name: 'Stop', session_id: 'thread-main', turn_id: 'turn-1' }));
    expect(service.terminals.summary(t.id)?.turn).toBe('idle');
    await service.terminals.stop(t.id);
  });

  test('the hook never blocks the CLI: with the service gone it still exits 0 and prints nothing', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'svc-nohome-'));
    try {
      const result = await runHookProcess([locateHarnessFiles().turnHook, 'stop'], '{"session_id":"x"}', { SVC_HOME: elsewhere, SVC_TASK_ID: '1' });
      expect([result.status, result.stdout]).toEqual([0, '']);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('submitting a message into the live terminal', () => {
  test('waits for the prompt, pastes, presses Enter, is confirmed by the prompt hook, and refuses a busy turn', async () => {
    const t = task('submit');
    await service.terminals.start(t.id, { connection: 'stand-in' });
    const first = await service.terminals.submitMessage(t.id, 'first line\nsecond line');
    expect(first).toMatchObject({ confirmed: true, turnId: 'turn-1' });
    await waitFor(() => screen(t.id).includes('got: "first line\\nsecond line"'), 5000, 'the message on the screen');
    // The turn runs (1.5 s in the stand-in): typing now would be steering (Codex) or queueing.
    await expect(service.terminals.submitMessage(t.id, 'too early')).rejects.toMatchObject({ code: 'terminal_busy' });
    await waitFor(() => screen(t.id).includes('done turn-1'), 10_000, 'the end of the first turn');
    await waitFor(() => service.terminals.summary(t.id)?.turn === 'idle', 5000, 'the stop hook');
    const second = await service.terminals.submitMessage(t.id, 'next \x1b[201~message\r\x07');
    expect(second).toMatchObject({ confirmed: true, turnId: 'turn-2' });
    // The paste-end marker and control characters cannot escape the paste; a CR inside is a newline.
    await waitFor(() => screen(t.id).includes('got: "next message\\n"'), 5000, 'the second message on the screen');
    expect(screen(t.id)).not.toContain('too early');
    await service.terminals.stop(t.id);
  });

  test('a reply to a resumed CLI waits for its prompt (terminals.promptWaitMs, 10 s by default), not just for quiet output, and stops waiting once the prompt shows', async () => {
    expect(service.terminals.settings.promptWaitMs).toBe(10_000);
    const t = task('late prompt');
    await service.terminals.start(t.id, { connection: 'late-prompt' });
    await waitFor(() => screen(t.id).includes('stand-in resuming'), 10_000, 'the first output');
    const began = Date.now();
    let turnAtEnter: string | undefined;
    await submitReply(service.terminals, t.id, 'typed after the prompt', { waitForQuietMs: 300, onEnter: () => (turnAtEnter = service.terminals.summary(t.id)?.turn) });
    const waited = Date.now() - began;
    // Quiet for 300 ms long before the prompt: typed then, the Enter would meet a CLI still starting.
    expect(turnAtEnter).toBe('idle');
    await waitFor(() => screen(t.id).includes('got: "typed after the prompt"'), 5000, 'the reply on the screen');
    expect(screen(t.id).indexOf('stand-in ready')).toBeLessThan(screen(t.id).indexOf('got: "typed after the prompt"'));
    expect(waited).toBeLessThan(service.terminals.settings.promptWaitMs);
    await service.terminals.stop(t.id);
  });

  test('an empty message is refused before anything is typed', async () => {
    const t = task('empty');
    await service.terminals.start(t.id, { connection: 'stand-in' });
    await expect(service.terminals.submitMessage(t.id, ' \n ')).rejects.toMatchObject({ code: 'invalid_request' });
    await service.terminals.stop(t.id);
  });
});
