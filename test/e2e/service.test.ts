import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, SVC_BIN, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../support/qwen-demo-project.js';
import { isRunning, readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';


let svc: SvcSandbox;
let repo: string;
const serves: ServeProcess[] = [];

async function serve(): Promise<ServeProcess> {
  const started = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300' });
  serves.push(started);
  return started;
}

const ok = (args: string[]) => svcOk(svc, args);

interface Execution {
  id: number;
  status: string;
  endReason: string | null;
  outcome: string | null;
  pid: number | null;
  mode: string;
}

async function executionsOf(taskId: number): Promise<Execution[]> {
  return JSON.parse(await ok(['task', 'show', String(taskId), '--json'])).executions;
}

/** Reads the buffer from `cursor` until `text` shows up; returns that read. */
const readUntil = (server: ServeProcess, taskId: number, cursor: number, text: string) => readTerminalUntil(server, taskId, text, cursor);

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  repo = await prepareQwenDemoProject(svc);
}, 120_000);

afterAll(async () => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

describe('svc serve with the Qwen Code sample provider', () => {
  test('a task runs in a PTY: buffer with a cursor, input, stop, resume, and restarts of the service', async () => {
    const created = await ok(['task', 'create', 'Say hello', '--project', 'demo']);
    const taskId = Number(/task (\d+) created/.exec(created)![1]);
    const first = await serve();

    const started = await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
    expect(started).toMatch(/started: execution \d+ \(fresh session, svc-community\.qwen-code via qwen, pid \d+\)/);
    const banner = await readUntil(first, taskId, 0, 'qwen> ');
    expect(banner.data).toContain('Qwen Code 0.24.4');
    expect(banner).toMatchObject({ from: 0, behind: false, state: 'RUNNING' });

    const sent = await first.api('POST', `/api/internal/terminal/${taskId}/input`, { data: 'hello from the test', submit: true });
    expect(sent.status).toBe(200);
    const reply = await readUntil(first, taskId, banner.cursor, 'You said: hello from the test');
    expect(reply.data).not.toContain('Qwen Code 0.24.4');
    expect(await ok(['task', 'output', String(taskId)])).toContain('You said: hello from the test');

    const [running] = await executionsOf(taskId);
    expect(running).toMatchObject({ status: 'RUNNING', mode: 'fresh' });
    expect(isRunning(running!.pid!)).toBe(true);
    // A person's Stop is not a failure.
    expect(await ok(['task', 'stop', String(taskId)])).toMatch(/stopped: execution \d+ Stopped\n/);
    expect((await executionsOf(taskId))[0]).toMatchObject({ status: 'COMPLETED', outcome: 'stopped', endReason: 'stopped' });
    expect(isRunning(running!.pid!)).toBe(false);

    expect(await ok(['task', 'resume', String(taskId)])).toContain('continuing the most recent session');
    await readUntil(first, taskId, 0, 'Continuing the most recent session');
    const [resumed] = await executionsOf(taskId);
    expect(resumed).toMatchObject({ status: 'RUNNING', mode: 'resume' });

    // The service dies without a chance to clean up: the CLI lives on in the terminal holder.
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serve();
    // Printed right after the line startServe waits for; the pipe may hand it over in a later chunk.
    await waitFor(() => second.child.output.stdout.includes('took back 1 running task terminal(s)'), 5000, 'the recovery line');
    expect(isRunning(resumed!.pid!)).toBe(true);
    expect((await executionsOf(taskId))[0]).toMatchObject({ id: resumed!.id, status: 'RUNNING', pid: resumed!.pid });
    await readUntil(second, taskId, 0, 'Continuing the most recent session');

    // A normal stop of the service leaves it running too; the next service takes it back.
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.child.output.stdout).toContain('stopping: the task terminals keep running in the terminal holder');
    expect(existsSync(join(svc.home, 'server.json'))).toBe(false);
    expect(isRunning(resumed!.pid!)).toBe(true);

    const third = await serve();
    expect(third.child.output.stdout).not.toContain('left live by the previous service');
    await waitFor(() => third.child.output.stdout.includes('took back 1 running task terminal(s)'), 5000, 'the recovery line');
    await ok(['task', 'stop', String(taskId)]);
    expect(isRunning(resumed!.pid!)).toBe(false);
    const restarted = await ok(['task', 'resume', String(taskId), '--connection', 'qwen']);
    expect(restarted).toContain('resumed');
    await readUntil(third, taskId, 0, 'Continuing the most recent session');
    await ok(['task', 'stop', String(taskId)]);
    third.child.kill('SIGINT');
    expect((await third.exited).code).toBe(0);
  }, 240_000);

  test('a leftover process that outlived a killed service and its terminal holder is killed when the service starts again', async () => {
    // A wrapper around the stand-in that leaves a HUP-ignoring child in the session's process group,
    // as a CLI's helper process might: closing the PTY does not end it.
    const wrapper = join(svc.home, 'qwen-with-helper');
    const pidfile = join(svc.home, 'helper.pid');
    writeFileSync(
      wrapper,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then exec qwen "$@"; fi\n( trap '' HUP; exec sleep 300 ) &\necho $! > "$HELPER_PIDFILE"\nexec qwen "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    await ok(['connection', 'add', 'qwen-helper', '--provider', 'svc-community.qwen-code', '--command', wrapper, '--env', `HELPER_PIDFILE=${pidfile}`]);
    const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Leaves a helper', '--project', 'demo']))![1]);
    const first = await serve();
    await ok(['task', 'start', String(taskId), '--connection', 'qwen-helper']);
    await readUntil(first, taskId, 0, 'qwen> ');
    const helper = Number(await waitFor(() => existsSync(pidfile) && readFileSync(pidfile, 'utf8').trim(), 10_000, 'the helper pid'));

    // The service and its terminal holder die: the PTY closes, the helper ignores the hang-up.
    const holders = JSON.parse(await ok(['doctor', '--json'])).terminalHolders as Array<{ pid: number }>;
    expect(holders).toHaveLength(1);
    first.child.kill('SIGKILL');
    await first.exited;
    process.kill(holders[0]!.pid, 'SIGKILL');
    await waitFor(() => !isRunning(holders[0]!.pid), 10_000, 'the holder to be gone');
    await new Promise((r) => setTimeout(r, 500));
    expect(isRunning(helper)).toBe(true);

    const second = await serve();
    await waitFor(() => second.child.output.stdout.includes('1 execution(s) left live by the previous service ended as interrupted'), 5000, 'the recovery line');
    await waitFor(() => second.child.output.stdout.includes('killed 1 leftover process tree(s)'), 5000, 'the recovery line');
    await waitFor(() => !isRunning(helper), 10_000, 'the helper to be killed');
    // Its terminal lost, the execution is interrupted; resuming the task continues it.
    expect((await executionsOf(taskId))[0]).toMatchObject({ status: 'COMPLETED', outcome: 'interrupted', endReason: 'service_restart' });
    expect(await ok(['task', 'show', String(taskId)])).toMatch(/Interrupted — resumable/);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 180_000);

  // These read from one running service (the attach test starts and stops a task of its own), so
  // they share it instead of starting one each.
  describe('one running service', () => {
    let server: ServeProcess;
    beforeAll(async () => {
      server = await serve();
    }, 120_000);
    afterAll(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });

    test('a second svc serve on the same SVC_HOME is refused', async () => {
      const again = await svc.run(['serve'], { env: { SVC_PORT: '0' }, timeoutMs: 60_000 });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('error server_already_running');
      expect(JSON.parse(readFileSync(join(svc.home, 'server.json'), 'utf8')).url).toBe(server.url);
      // The refused one left the running service's file and the service alone.
      expect((await server.api('GET', '/api/health')).status).toBe(200);
    }, 120_000);

    test('the real service refuses a foreign Host header and a missing or wrong token', async () => {
      const port = Number(new URL(server.url).port);
      const raw = (headers: Record<string, string>) =>
        new Promise<{ status: number; body: any }>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: '/api/tasks', headers }, (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (d: string) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
          });
          req.on('error', reject);
          req.end();
        });
      expect(await raw({ host: `attacker.example:${port}`, authorization: `Bearer ${server.token}` })).toMatchObject({
        status: 403,
        body: { error: { code: 'host_not_allowed' } },
      });
      expect(await raw({ host: `localhost:${port}` })).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
      expect(await raw({ host: `localhost:${port}`, authorization: 'Bearer not-the-token' })).toMatchObject({ status: 401 });
      expect((await raw({ host: `localhost:${port}`, authorization: `Bearer ${server.token}` })).status).toBe(200);
    }, 120_000);

    test('svc task attach is a live terminal; Ctrl-] detaches and leaves the task running', async () => {
      const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Attach to me', '--project', 'demo']))![1]);
      await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
      const user = pty.spawn(process.execPath, [SVC_BIN, 'task', 'attach', String(taskId)], {
        cols: 100,
        rows: 30,
        cwd: svc.home,
        env: svc.env as Record<string, string>,
      });
      let screen = '';
      user.onData((data) => (screen += data));
      const exited = new Promise<number>((resolve) => user.onExit(({ exitCode }) => resolve(exitCode)));
      await waitFor(() => screen.includes('qwen> '), 30_000, 'the replayed prompt');
      user.write('typed through attach\r');
      await waitFor(() => screen.includes('You said: typed through attach'), 15_000, 'the reply');
      expect((await server.api('GET', `/api/internal/terminal/${taskId}`)).body.terminal).toMatchObject({ attached: 1, keepaliveRemainingMs: null });
      user.write('\x1d');
      expect(await exited).toBe(0);
      expect(screen).toContain('detached from task');
      const state = await server.api('GET', `/api/internal/terminal/${taskId}`);
      expect(state.body.terminal).toMatchObject({ state: 'RUNNING' });
      // The service sees the viewer leave once its stream closes.
      let attached = state.body.terminal.attached;
      for (let i = 0; i < 50 && attached !== 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        attached = (await server.api('GET', `/api/internal/terminal/${taskId}`)).body.terminal.attached;
      }
      expect(attached).toBe(0);
      await ok(['task', 'stop', String(taskId)]);
    }, 120_000);
  });
});
