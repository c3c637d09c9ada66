// Agents outlive the service: task terminals live in the terminal holder, so a `kill -9` of
// `svc serve` (and an upgrade to another build) leaves every CLI running, and the next service takes
// each back with its scrollback, its input, its parked question and the end it had meanwhile.
// SVC_TEST_HOLDER_TERMINALS=30 runs the same with 30 terminals.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../support/qwen-demo-project.js';
import { isRunning, readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { connectSvcMcp } from '../support/svc-mcp-client.js';
import { taskTerminalMcpEnv } from '../support/task-terminal-mcp-env.js';

const TERMINALS = Number(process.env.SVC_TEST_HOLDER_TERMINALS ?? 3);

let svc: SvcSandbox;
const serves: ServeProcess[] = [];
const ok = (args: string[]) => svcOk(svc, args);

// The stand-in shows no bracketed paste: a reply is typed once its output is quiet (after 500 ms).
async function serve(env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<ServeProcess> {
  const started = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300', SVC_TERMINAL_PROMPT_WAIT_MS: '500', ...env }, args);
  serves.push(started);
  return started;
}

async function crash(server: ServeProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

interface Execution {
  id: number;
  status: string;
  endReason: string | null;
  exitCode: number | null;
  pid: number;
}

const executionsOf = async (taskId: number) => JSON.parse(await ok(['task', 'show', String(taskId), '--json'])).executions as Execution[];

async function holders(): Promise<Array<{ build: string; live: number | null; pid: number }>> {
  return JSON.parse(await ok(['doctor', '--json'])).terminalHolders;
}

async function say(server: ServeProcess, taskId: number, text: string, cursor = 0): Promise<void> {
  const sent = await server.api('POST', `/api/internal/terminal/${taskId}/input`, { data: text, submit: true });
  expect(sent.status).toBe(200);
  await readTerminalUntil(server, taskId, `You said: ${text}`, cursor);
}

const count = (text: string, part: string) => text.split(part).length - 1;

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  await prepareQwenDemoProject(svc);
}, 120_000);

afterAll(() => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  // Its SVC_HOME gone, each holder ends its terminals and exits.
  svc.cleanup();
});

describe('task terminals in the terminal holder', () => {
  test('kill -9 of svc serve: the next service takes back every terminal, the same process, its scrollback, its input and its parked question', async () => {
    const first = await serve();
    const tasks: number[] = [];
    for (let i = 0; i < TERMINALS; i++) {
      const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', `Long work ${i}`, '--project', 'demo']))![1]);
      await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
      tasks.push(taskId);
    }
    for (const [i, taskId] of tasks.entries()) {
      await readTerminalUntil(first, taskId, 'qwen> ');
      await say(first, taskId, `before the crash ${i}`);
    }
    const before = new Map<number, Execution>();
    for (const taskId of tasks) before.set(taskId, (await executionsOf(taskId))[0]!);

    // The first task's agent asks a person and parks.
    const asker = tasks[0]!;
    const mcp = await connectSvcMcp(svc, taskTerminalMcpEnv(before.get(asker)!.pid));
    const asked = await mcp.call<{ messageId: number }>('ask_human', { question: 'Which database?', options: ['sqlite', 'postgres'] });
    await mcp.close();
    expect((await executionsOf(asker))[0]).toMatchObject({ status: 'PAUSED' });

    await crash(first);
    for (const taskId of tasks) expect(isRunning(before.get(taskId)!.pid)).toBe(true);

    const second = await serve();
    await waitFor(() => second.child.output.stdout.includes(`took back ${TERMINALS} running task terminal(s)`), 10_000, 'the reattach line');
    for (const taskId of tasks) {
      const [execution] = await executionsOf(taskId);
      expect(execution).toMatchObject({ id: before.get(taskId)!.id, status: taskId === asker ? 'PAUSED' : 'RUNNING', pid: before.get(taskId)!.pid });
    }
    for (const [i, taskId] of tasks.entries()) {
      // The scrollback from before the crash, from the start of the terminal.
      const replay = await readTerminalUntil(second, taskId, `You said: before the crash ${i}`);
      expect(replay.data).toContain('qwen> ');
      const terminal = await second.api('GET', `/api/internal/terminal/${taskId}`);
      expect(terminal.body.terminal).toMatchObject({ pid: before.get(taskId)!.pid, state: taskId === asker ? 'PAUSED' : 'RUNNING' });
      if (taskId !== asker) await say(second, taskId, `after the crash ${i}`, replay.cursor);
    }

    // The parked question, answered after the crash, is typed into the same process once.
    expect(await ok(['harness', 'reply', String(asked.messageId), 'use', 'postgres'])).toContain(`replied: task ${asker} already_running`);
    await readTerminalUntil(second, asker, 'You said: use postgres');
    expect((await executionsOf(asker))[0]).toMatchObject({ id: before.get(asker)!.id, status: 'RUNNING', pid: before.get(asker)!.pid });
    await say(second, asker, 'and one more line');
    const whole = await second.api('GET', `/api/internal/terminal/${asker}/buffer?cursor=0`);
    expect(count(whole.body.data, 'You said: use postgres')).toBe(1);

    // A CLI that ends while no service runs is recorded with its real exit on the next start.
    const ender = tasks[tasks.length - 1]!;
    await crash(second);
    process.kill(before.get(ender)!.pid, 'SIGTERM');
    await waitFor(() => !isRunning(before.get(ender)!.pid), 10_000, 'the CLI to end');
    const third = await serve();
    await waitFor(() => third.child.output.stdout.includes('recorded 1 task terminal(s) that ended while the service was away'), 10_000, 'the ended-away line');
    expect((await executionsOf(ender))[0]).toMatchObject({ id: before.get(ender)!.id, status: 'FAILED', outcome: 'failed', endReason: 'exited' });
    for (const taskId of tasks.slice(0, -1)) expect((await executionsOf(taskId))[0]).toMatchObject({ status: 'RUNNING' });
    await crash(third);
  }, 300_000 + TERMINALS * 10_000);

  test('an upgrade: the old build keeps its terminals, new terminals go to the new build, the old holder leaves with its last terminal', async () => {
    const oldServe = await serve({ SVC_TERMINAL_HOLDER_BUILD: 'old-build' });
    const oldTask = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Before the upgrade', '--project', 'demo']))![1]);
    await ok(['task', 'start', String(oldTask), '--connection', 'qwen']);
    await readTerminalUntil(oldServe, oldTask, 'qwen> ');
    const [oldExecution] = await executionsOf(oldTask);
    await crash(oldServe);

    const newServe = await serve({ SVC_TERMINAL_HOLDER_BUILD: 'new-build' });
    await waitFor(() => newServe.child.output.stdout.includes('took back'), 10_000, 'the reattach line');
    const newTask = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'After the upgrade', '--project', 'demo']))![1]);
    await ok(['task', 'start', String(newTask), '--connection', 'qwen']);
    await readTerminalUntil(newServe, newTask, 'qwen> ');
    await say(newServe, oldTask, 'typed into the old build');

    const both = await holders();
    expect(both.find((holder) => holder.build === 'old-build')).toMatchObject({ live: 1 });
    expect(both.find((holder) => holder.build === 'new-build')).toMatchObject({ live: expect.any(Number) });
    const oldHolder = both.find((holder) => holder.build === 'old-build')!;

    // Its last terminal ends: the old build's holder exits; the new one stays.
    await ok(['task', 'stop', String(oldTask)]);
    expect((await executionsOf(oldTask))[0]).toMatchObject({ id: oldExecution!.id, endReason: 'stopped' });
    await waitFor(() => !isRunning(oldHolder.pid), 10_000, 'the old holder to exit');
    const builds = (await holders()).map((holder) => holder.build);
    expect(builds).toContain('new-build');
    expect(builds).not.toContain('old-build');

    // A stop of the service that ends the terminals on purpose.
    newServe.child.kill('SIGTERM');
    await newServe.exited;
    const last = await serve({ SVC_TERMINAL_HOLDER_BUILD: 'new-build' }, ['--stop-terminals']);
    const [running] = await executionsOf(newTask);
    expect(running).toMatchObject({ status: 'RUNNING' });
    last.child.kill('SIGTERM');
    expect(await last.exited).toEqual({ code: 0, signal: null });
    expect(last.child.output.stdout).toContain('stopping: ending every terminal');
    expect(isRunning(running!.pid)).toBe(false);
    expect((await executionsOf(newTask))[0]).toMatchObject({ id: running!.id, status: 'COMPLETED', outcome: 'interrupted', endReason: 'service_shutdown' });
  }, 300_000);
});
