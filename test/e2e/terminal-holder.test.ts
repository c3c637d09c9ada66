// Agents outlive the service: task terminals live in the terminal holder, so a `kill -9` of
// `svc serve` (and an upgrade to another build) leaves every CLI running, and the next service takes
// each back with its scrollback, its input, its parked question and the end it had meanwhile.
// The crash journey runs with 30 terminals (SVC_TEST_HOLDER_TERMINALS=<n> for another count): set up
// over HTTP and driven side by side, it costs about 6 s more than with 3.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSvcSandbox, REPO_ROOT, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { nextSvcBuild, type SvcBuild } from '../support/next-svc-build.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../support/qwen-demo-project.js';
import { apiOk, isRunning, readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { connectSvcMcp } from '../support/svc-mcp-client.js';
import { taskTerminalMcpEnv } from '../support/task-terminal-mcp-env.js';

const TERMINALS = Number(process.env.SVC_TEST_HOLDER_TERMINALS ?? 30);

let svc: SvcSandbox;
let next: SvcBuild;
// This checkout's build is the release running before the upgrade; the copy is the next one.
const OLD_VERSION = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version as string;
const serves: ServeProcess[] = [];
const ok = (args: string[]) => svcOk(svc, args);

// The stand-in shows no bracketed paste: a reply is typed once its output is quiet (after 500 ms).
async function serve(env: NodeJS.ProcessEnv = {}, args: string[] = [], options: { entry?: string } = {}): Promise<ServeProcess> {
  const started = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300', SVC_TERMINAL_PROMPT_WAIT_MS: '500', ...env }, args, options);
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

/** Each task's newest execution, read in one request. */
async function latestExecutions(server: ServeProcess, taskIds: number[]): Promise<Map<number, Execution>> {
  const { items } = await apiOk<{ items: Array<Execution & { taskId: number }> }>(server, 'GET', '/api/executions?limit=500');
  const latest = new Map<number, Execution>();
  for (const execution of items) if (taskIds.includes(execution.taskId) && !latest.has(execution.taskId)) latest.set(execution.taskId, execution);
  return latest;
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

/** Attaches as `svc task attach` does (the output stream from the start of the terminal) until `text` shows; returns what came. */
async function attachUntil(server: ServeProcess, taskId: number, text: string): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/internal/terminal/${taskId}/stream?cursor=0`, { headers: { authorization: `Bearer ${server.token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  const decoder = new TextDecoder();
  let seen = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes(text)) return seen;
    }
  } finally {
    controller.abort();
  }
  throw new Error(`the attached stream ended before "${text}": ${JSON.stringify(seen)}`);
}

const count = (text: string, part: string) => text.split(part).length - 1;
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  next = nextSvcBuild(OLD_VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 1)));
  await prepareQwenDemoProject(svc);
}, 120_000);

afterAll(() => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  // Its SVC_HOME gone, each holder ends its terminals and exits.
  svc.cleanup();
  next?.remove();
});

describe('task terminals in the terminal holder', () => {
  test('kill -9 of svc serve: the next service takes back every terminal, the same process, its scrollback, its input and its parked question', async () => {
    const first = await serve();
    // Set up over HTTP, the terminals started side by side (one `svc` start per step would cost more than the journey).
    const tasks = await Promise.all(
      Array.from({ length: TERMINALS }, async (_, i) => {
        const task = await apiOk<{ id: number }>(first, 'POST', '/api/tasks', { projectId: 'demo', title: `Long work ${i}` });
        await apiOk(first, 'POST', `/api/internal/terminal/${task.id}/start`, { connection: 'qwen' });
        await readTerminalUntil(first, task.id, 'qwen> ');
        await say(first, task.id, `before the crash ${i}`);
        return task.id;
      }),
    );
    const before = await latestExecutions(first, tasks);

    // The first task's agent asks a person and parks.
    const asker = tasks[0]!;
    const mcp = await connectSvcMcp(svc, taskTerminalMcpEnv(before.get(asker)!.pid));
    const asked = await mcp.call<{ messageId: number }>('ask_human', { question: 'Which database?', options: ['sqlite', 'postgres'] });
    await mcp.close();
    expect((await latestExecutions(first, [asker])).get(asker)).toMatchObject({ status: 'PAUSED' });

    await crash(first);
    for (const taskId of tasks) expect(isRunning(before.get(taskId)!.pid)).toBe(true);

    const second = await serve();
    await waitFor(() => second.child.output.stdout.includes(`took back ${TERMINALS} running task terminal(s)`), 10_000, 'the reattach line');
    const after = await latestExecutions(second, tasks);
    const running = tasks.filter((taskId) => after.get(taskId)!.status === 'RUNNING');
    expect(running).toHaveLength(TERMINALS - 1);
    for (const taskId of tasks) {
      expect(after.get(taskId)).toMatchObject({ id: before.get(taskId)!.id, status: taskId === asker ? 'PAUSED' : 'RUNNING', pid: before.get(taskId)!.pid });
    }
    await Promise.all(
      tasks.map(async (taskId, i) => {
        // The scrollback from before the crash, from the start of the terminal.
        const replay = await readTerminalUntil(second, taskId, `You said: before the crash ${i}`);
        expect(replay.data).toContain('qwen> ');
        const terminal = await second.api('GET', `/api/internal/terminal/${taskId}`);
        expect(terminal.body.terminal).toMatchObject({ pid: before.get(taskId)!.pid, state: taskId === asker ? 'PAUSED' : 'RUNNING' });
        if (taskId !== asker) await say(second, taskId, `after the crash ${i}`, replay.cursor);
      }),
    );

    // Attaching (the stream `svc task attach` and the web read) shows the screen from before the crash.
    expect(await attachUntil(second, tasks[1]!, 'You said: before the crash 1')).toContain('qwen> ');

    // The parked question, answered after the crash, is typed into the same process once.
    expect(await ok(['harness', 'reply', String(asked.messageId), 'use', 'postgres'])).toContain(`replied: task ${asker} already_running`);
    await readTerminalUntil(second, asker, 'You said: use postgres');
    const answered = await latestExecutions(second, tasks);
    for (const taskId of tasks) expect(answered.get(taskId)).toMatchObject({ id: before.get(taskId)!.id, status: 'RUNNING', pid: before.get(taskId)!.pid });
    await say(second, asker, 'and one more line');
    const whole = await second.api('GET', `/api/internal/terminal/${asker}/buffer?cursor=0`);
    expect(count(whole.body.data, 'You said: use postgres')).toBe(1);

    // A CLI that ends while no service runs is recorded with its real exit on the next start.
    const ender = tasks[tasks.length - 1]!;
    await crash(second);
    process.kill(before.get(ender)!.pid, 'SIGTERM');
    await waitFor(() => !isRunning(before.get(ender)!.pid), 10_000, 'the CLI to end');
    // This start ends every terminal when it stops (the next test begins with none running).
    const third = await serve({}, ['--stop-terminals']);
    await waitFor(() => third.child.output.stdout.includes('recorded 1 task terminal(s) that ended while the service was away'), 10_000, 'the ended-away line');
    const last = await latestExecutions(third, tasks);
    expect(last.get(ender)).toMatchObject({ id: before.get(ender)!.id, status: 'FAILED', outcome: 'failed', endReason: 'exited' });
    for (const taskId of tasks.slice(0, -1)) expect(last.get(taskId)).toMatchObject({ status: 'RUNNING' });
    third.child.kill('SIGTERM');
    await third.exited;
  }, 120_000 + TERMINALS * 5_000);

  test('an upgrade to another build: the old holder keeps serving its terminals, new terminals go to a holder of the new build, the old holder leaves with its last terminal', async () => {
    // The release running today (this checkout's build) starts an agent, and is stopped for the upgrade.
    const oldServe = await serve();
    const oldTask = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Before the upgrade', '--project', 'demo']))![1]);
    await ok(['task', 'start', String(oldTask), '--connection', 'qwen']);
    await readTerminalUntil(oldServe, oldTask, 'qwen> ');
    await say(oldServe, oldTask, 'typed before the upgrade');
    const [oldExecution] = await executionsOf(oldTask);
    oldServe.child.kill('SIGTERM');
    await oldServe.exited;
    expect(oldServe.child.output.stdout).toContain('stopping: the task terminals keep running in the terminal holder');
    expect(isRunning(oldExecution!.pid)).toBe(true);

    // The next release: its own bundles, its own host version.
    const newServe = await serve({}, [], { entry: next.entry });
    expect(newServe.child.output.stdout).toContain(`svc ${next.version} serving on`);
    await waitFor(() => newServe.child.output.stdout.includes('took back 1 running task terminal(s)'), 10_000, 'the reattach line');
    expect((await executionsOf(oldTask))[0]).toMatchObject({ id: oldExecution!.id, status: 'RUNNING', pid: oldExecution!.pid });
    const replay = await readTerminalUntil(newServe, oldTask, 'You said: typed before the upgrade');
    await say(newServe, oldTask, 'typed into the old build', replay.cursor);
    const newTask = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'After the upgrade', '--project', 'demo']))![1]);
    await ok(['task', 'start', String(newTask), '--connection', 'qwen']);
    await readTerminalUntil(newServe, newTask, 'qwen> ');
    await say(newServe, newTask, 'typed into the new build');

    // Two holders, each of its build, each running from its own build's files, one terminal each.
    const both = await holders();
    const oldHolder = both.find((holder) => holder.build === OLD_VERSION);
    const newHolder = both.find((holder) => holder.build === next.version);
    expect(oldHolder).toMatchObject({ live: 1 });
    expect(newHolder).toMatchObject({ live: 1 });
    expect(commandLine(oldHolder!.pid)).toContain(join(REPO_ROOT, 'host/dist/terminal-holder.mjs'));
    expect(commandLine(newHolder!.pid)).toContain(join(next.dist, 'terminal-holder.mjs'));
    const doctor = await ok(['doctor']);
    expect(doctor).toMatch(new RegExp(`svc ${escape(OLD_VERSION)}\\s+pid ${oldHolder!.pid}\\s+protocol 1, 2\\s+1 running terminal`));
    expect(doctor).toMatch(new RegExp(`svc ${escape(next.version)}\\s+pid ${newHolder!.pid}\\s+protocol 1, 2\\s+1 running terminal`));

    // Its last terminal ends: the old build's holder exits; the new one stays with its terminal.
    await ok(['task', 'stop', String(oldTask)]);
    expect((await executionsOf(oldTask))[0]).toMatchObject({ id: oldExecution!.id, outcome: 'stopped', endReason: 'stopped' });
    await waitFor(() => !isRunning(oldHolder!.pid), 10_000, 'the old holder to exit');
    const after = await holders();
    expect(after.map((holder) => holder.build)).toEqual([next.version]);
    expect(after[0]).toMatchObject({ pid: newHolder!.pid, live: 1 });

    // A stop of the service that ends the terminals on purpose.
    newServe.child.kill('SIGTERM');
    await newServe.exited;
    const last = await serve({}, ['--stop-terminals'], { entry: next.entry });
    const [running] = await executionsOf(newTask);
    expect(running).toMatchObject({ status: 'RUNNING' });
    last.child.kill('SIGTERM');
    expect(await last.exited).toEqual({ code: 0, signal: null });
    expect(last.child.output.stdout).toContain('stopping: ending every terminal');
    expect(isRunning(running!.pid)).toBe(false);
    expect((await executionsOf(newTask))[0]).toMatchObject({ id: running!.id, status: 'COMPLETED', outcome: 'interrupted', endReason: 'service_shutdown' });
  }, 300_000);
});
