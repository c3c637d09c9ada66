// An agent in a real task terminal (the Qwen Code stand-in under a real `svc serve`) asks a person
// through a real `svc mcp` child (the task profile the terminal is wired with); a person answers from
// the CLI.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../../../test/support/svc-process.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../../../test/support/qwen-demo-project.js';
import { isRunning, readTerminalUntil, startServe, type ServeProcess } from '../../../test/support/svc-serve.js';
import { connectSvcMcp } from '../../../test/support/svc-mcp-client.js';
import { taskTerminalMcpEnv } from '../../../test/support/task-terminal-mcp-env.js';


let svc: SvcSandbox;
const serves: ServeProcess[] = [];

const ok = (args: string[]) => svcOk(svc, args);

// The Qwen stand-in draws a prompt but no bracketed paste, so a reply finds no prompt to wait for:
// a short terminals.promptWaitMs types it once the output is quiet, as an operator of such a CLI would.
async function serve(): Promise<ServeProcess> {
  const started = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300', SVC_TERMINAL_PROMPT_WAIT_MS: '500' });
  serves.push(started);
  return started;
}

const readUntil = readTerminalUntil;

const executionsOf = async (taskId: number) => JSON.parse(await ok(['task', 'show', String(taskId), '--json'])).executions as { id: number; status: string; pid: number }[];

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  await prepareQwenDemoProject(svc);
}, 120_000);

afterAll(() => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

describe('ask_human and reply_to_ask in a live task terminal', () => {
  test('ask parks the execution with its PTY alive; a CLI reply is typed into the same PTY; a second reply is no_pending', async () => {
    const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Needs a decision', '--project', 'demo']))![1]);
    const server = await serve();
    await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
    const banner = await readUntil(server, taskId, 'qwen> ');

    // The task terminal's agent calls the tool through a real `svc mcp` child with the terminal's
    // wiring (profile task, its own task proven by the execution's credential, no taskId in the
    // arguments), which forwards it to the service over the localhost bridge.
    const [running] = await executionsOf(taskId);
    const wiring = taskTerminalMcpEnv(running!.pid);
    expect(wiring).toMatchObject({ SVC_MCP_PROFILE: 'task', SVC_TASK_ID: String(taskId), SVC_TASK_SECRETS_FILE: expect.stringMatching(/\.svc-task-secrets\.json$/) });
    const mcp = await connectSvcMcp(svc, wiring);
    expect(await mcp.fail('ask_human', { question: 'not mine', taskId: taskId + 1000 })).toMatchObject({ code: 'task_mismatch' });
    const asked = { body: await mcp.call<{ taskId: number; executionId: number; messageId: number }>('ask_human', { question: 'Which database should the service use?', options: ['sqlite', 'postgres'] }) };
    await mcp.close();
    expect(asked.body).toMatchObject({ taskId, status: 'OPEN', parked: true, instruction: expect.stringContaining('Stop now and wait') });
    const [parked] = await executionsOf(taskId);
    expect(parked).toMatchObject({ id: asked.body.executionId, status: 'PAUSED' });
    expect(isRunning(parked!.pid)).toBe(true);
    const terminal = await server.api('GET', `/api/internal/terminal/${taskId}`);
    expect(terminal.body.terminal).toMatchObject({ state: 'PAUSED', keepaliveRemainingMs: null });

    // Visible in the notification center, with no channel configured: registered, nothing sent.
    const listed = JSON.parse(await ok(['harness', 'list', '--task', String(taskId), '--json']));
    expect(listed.items).toEqual([expect.objectContaining({ id: asked.body.messageId, kind: 'ASK', status: 'OPEN', deliveryStatus: 'LOCAL', actions: ['view', 'reply'] })]);

    const replied = await ok(['harness', 'reply', String(asked.body.messageId), 'use', 'postgres']);
    expect(replied).toContain(`replied: task ${taskId} already_running`);
    const echoed = await readUntil(server, taskId, 'You said: ', banner.cursor);
    expect(echoed.data).toContain('use postgres');
    const [resumed] = await executionsOf(taskId);
    expect(resumed).toMatchObject({ id: parked!.id, status: 'RUNNING', pid: parked!.pid });
    // Running again, nobody attached: the disconnect keepalive counts down again.
    expect((await server.api('GET', `/api/internal/terminal/${taskId}`)).body.terminal).toMatchObject({ state: 'RUNNING', keepaliveRemainingMs: expect.any(Number) });

    const shown = JSON.parse(await ok(['harness', 'show', String(asked.body.messageId), '--json']));
    expect(shown).toMatchObject({ status: 'ANSWERED', ask: { reply: 'use postgres', repliedVia: 'cli', resumeOutcome: 'already_running' }, actions: ['view'] });
    expect(shown.ask.repliedAt).not.toBeNull();

    const again = await svc.run(['harness', 'reply', String(asked.body.messageId), 'sqlite after all'], { timeoutMs: 30_000 });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no_pending');
    const overHttp = await server.api('POST', '/api/internal/harness/reply', { taskId, reply: 'anyone?' });
    expect(overHttp).toMatchObject({ status: 409, body: { error: { code: 'no_pending' } } });
    expect((await executionsOf(taskId))[0]).toMatchObject({ id: parked!.id, status: 'RUNNING' });

    const notified = await server.api('POST', '/api/internal/harness/notify', { taskId, message: 'schema migrated' });
    expect(notified).toMatchObject({ status: 201, body: { status: 'NOTIFY_ONLY' } });
    await ok(['task', 'stop', String(taskId)]);
    server.child.kill('SIGTERM');
    await server.exited;
  }, 180_000);

  test('when the parked terminal is gone (the service and its terminal holder were killed), the reply resumes the CLI session with it', async () => {
    const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Parked across a crash', '--project', 'demo']))![1]);
    const first = await serve();
    await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
    await readUntil(first, taskId, 'qwen> ');
    const asked = await first.api('POST', '/api/internal/harness/ask', { taskId, question: 'Continue with plan B?' });
    expect(asked.status).toBe(201);
    const [holder] = JSON.parse(await ok(['doctor', '--json'])).terminalHolders as Array<{ pid: number }>;
    first.child.kill('SIGKILL');
    await first.exited;
    process.kill(holder!.pid, 'SIGKILL');
    await waitFor(() => !isRunning(holder!.pid), 10_000, 'the terminal holder to be gone');

    const second = await serve();
    const reply = await second.api('POST', '/api/internal/harness/reply', { taskId, reply: 'yes, plan B' });
    expect(reply).toMatchObject({ status: 200, body: { result: 'resumed', note: expect.stringContaining('resumed') } });
    const read = await readUntil(second, taskId, 'You said: ');
    expect(read.data).toContain('Continuing the most recent session');
    expect(read.data).toContain('yes, plan B');
    const [latest] = await executionsOf(taskId);
    expect(latest).toMatchObject({ id: reply.body.executionId, status: 'RUNNING' });
    expect(JSON.parse(await ok(['harness', 'show', String(asked.body.messageId), '--json'])).ask).toMatchObject({ status: 'ANSWERED', resumeOutcome: 'resumed' });
    await ok(['task', 'stop', String(taskId)]);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 180_000);
});
