import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '../../src/host-services.js';
import { processStartTime } from '../../src/platform/processes/index.js';
import {
  DEFAULT_TERMINAL_SETTINGS,
  TerminalManager,
  connectHolders,
  ensureHolderSecret,
  recoverOrphanedExecutions,
  startHolder,
  takeHolderExits,
  type TerminalManagerOptions,
  type TerminalSettings,
} from '../../src/features/terminals/index.js';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { FIXTURE_CLIS, waitFor } from '../../../test/support/svc-process.js';
import { locateHookFiles } from '@svc-org/harness/plugin/locate-hook-files';

let services: HostServices;
let home: string;
let repo: string;
let projectId: number;
const managers: TerminalManager[] = [];

// A stand-in for the host's own test CLI (not for an AI CLI): it reports what the host gave it,
// then runs svc-echo-cli, or misbehaves on purpose (PROBE_MODE comes from the connection's env).
const PROBE_CLI = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "svc-echo-cli 1.2.3"; exit 0; fi
case "$PROBE_MODE" in
  stubborn)
    trap '' INT TERM HUP
    echo "stubborn $$"
    while :; do sleep 0.2; done ;;
  flood)
    seq 1 50000
    exec svc-echo-cli --interactive ;;
  exit3)
    echo "failing"; exit 3 ;;
esac
echo "ENV SVC_HAS_PARENT=\${SVC_HAS_PARENT-unset} SVC_SIGNAL_DIR=\${SVC_SIGNAL_DIR-unset} SVC_TASK_ID=\${SVC_TASK_ID-unset} SVC_HOME=\${SVC_HOME-unset}"
echo "ARGS $*"
exec svc-echo-cli "$@"
`;

const isRunning = (pid: number) => {
  try {
    // A zombie has exited; only its parent has not collected it yet.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

function manager(settings: Partial<TerminalSettings> = {}, extra: Partial<TerminalManagerOptions> = {}): TerminalManager {
  const created = new TerminalManager({
    ...extra,
    domain: services.domain,
    extensions: services.extensions,
    connections: services.connections,
    logger: services.logger,
    signalDir: services.signalDir,
    settings: { ...DEFAULT_TERMINAL_SETTINGS, stopGraceMs: 1500, interruptMs: 200, ...settings },
    svcHome: home,
    // What `svc serve` gets from the harness plugin's port.
    harnessFiles: locateHookFiles,
    hostEnv: { ...process.env, PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}`, SVC_HOME: home },
  });
  managers.push(created);
  return created;
}

const task = (title: string, parentTaskId: number | null = null) => services.domain.tasks.create({ projectId, title, parentTaskId });
const screen = (terminals: TerminalManager, taskId: number) => terminals.read(taskId, undefined, 1 << 20).data.toString('utf8');

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-terminals-'));
  repo = join(home, 'repo');
  mkdirSync(repo);
  const probe = join(home, 'probe-cli');
  writeFileSync(probe, PROBE_CLI);
  chmodSync(probe, 0o755);
  services = await openHostServices({ env: { ...process.env, SVC_HOME: home, PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}` }, builtins: false });
  const { record } = await services.extensions.devAdd(copyFixtureProvider('echo'));
  await services.extensions.enable(record.id, async () => true);
  services.connections.add({ name: 'echo', providerId: record.id });
  for (const mode of ['probe', 'stubborn', 'flood', 'exit3']) {
    services.connections.add({ name: mode, providerId: record.id, commandOverride: probe, env: { PROBE_MODE: mode, SVC_HAS_PARENT: 'spoofed' } });
  }
  const workspace = services.domain.workspaces.create({ name: 'main' });
  projectId = services.domain.projects.create({ workspaceId: workspace.id, name: 'app', repoPath: repo }).id;
});

afterAll(async () => {
  for (const terminals of managers) await terminals.close();
  await services.close();
  rmSync(home, { recursive: true, force: true });
});

describe('starting a task terminal', () => {
  test('runs the session in the project folder, moves the task to IN_PROGRESS and records the process', async () => {
    const terminals = manager();
    const t = task('hello');
    const execution = await terminals.start(t.id, { connection: 'echo' });
    expect(execution).toMatchObject({ taskId: t.id, status: 'RUNNING', mode: 'fresh', connectionName: 'echo', providerId: 'svc-test.echo' });
    expect(execution.pid).toBeGreaterThan(0);
    expect(execution.pidStartTime).toBe(processStartTime(execution.pid!));
    expect(services.domain.tasks.get(t.id).status).toBe('IN_PROGRESS');
    await waitFor(() => screen(terminals, t.id).includes('echo-cli interactive'), 10_000, 'the banner');
    terminals.write(t.id, 'ping\r');
    await waitFor(() => screen(terminals, t.id).includes('echo: ping'), 10_000, 'the echo');
    await terminals.stop(t.id);
  });

  test("injects SVC_SIGNAL_DIR and the service's SVC_HOME always, SVC_HAS_PARENT only for a child task; adapters and connections cannot spoof them", async () => {
    const terminals = manager();
    const parent = task('parent');
    const child = task('child', parent.id);
    await terminals.start(parent.id, { connection: 'probe' });
    await terminals.start(child.id, { connection: 'probe' });
    await waitFor(() => screen(terminals, parent.id).includes('ARGS') && screen(terminals, child.id).includes('ARGS'), 10_000, 'both banners');
    const signalDir = join(home, 'signals');
    expect(screen(terminals, parent.id)).toContain(`ENV SVC_HAS_PARENT=unset SVC_SIGNAL_DIR=${signalDir} SVC_TASK_ID=${parent.id} SVC_HOME=${home}`);
    expect(screen(terminals, child.id)).toContain(`ENV SVC_HAS_PARENT=1 SVC_SIGNAL_DIR=${signalDir} SVC_TASK_ID=${child.id} SVC_HOME=${home}`);
    await Promise.all([terminals.stop(parent.id), terminals.stop(child.id)]);
  });

  test('refuses a second start while the task runs, and a start of a closed task', async () => {
    const terminals = manager();
    const t = task('twice');
    await terminals.start(t.id, { connection: 'echo' });
    await expect(terminals.start(t.id, { connection: 'echo' })).rejects.toMatchObject({ code: 'execution_running' });
    await expect(terminals.resume(t.id)).rejects.toMatchObject({ code: 'execution_running' });
    await terminals.stop(t.id);
    const closed = task('closed');
    services.domain.tasks.update(closed.id, { status: 'CANCELLED' });
    await expect(terminals.start(closed.id, { connection: 'echo' })).rejects.toMatchObject({ code: 'task_closed' });
    await expect(terminals.start(closed.id, { connection: 'nope' })).rejects.toMatchObject({ code: 'task_closed' });
    await expect(terminals.start(task('x').id, { connection: 'nope' })).rejects.toMatchObject({ code: 'connection_not_found' });
  });

  test('the CLI exiting marks the execution COMPLETED (exit 0) or FAILED', async () => {
    const terminals = manager();
    const ok = task('quits');
    await terminals.start(ok.id, { connection: 'echo' });
    await waitFor(() => screen(terminals, ok.id).includes('> '), 10_000, 'the prompt');
    terminals.write(ok.id, '/quit\r');
    expect(await terminals.waitForEnd(ok.id)).toMatchObject({ status: 'COMPLETED', exitCode: 0, endReason: 'exited', outcome: 'completed' });
    const bad = task('fails');
    await terminals.start(bad.id, { connection: 'exit3' });
    expect(await terminals.waitForEnd(bad.id)).toMatchObject({ status: 'FAILED', exitCode: 3, endReason: 'exited', outcome: 'failed' });
    expect(screen(terminals, bad.id)).toContain('failing');
    await expect(Promise.resolve().then(() => terminals.write(bad.id, 'x'))).rejects.toMatchObject({ code: 'terminal_not_running' });
  });
});

describe('stop', () => {
  test('ends the whole process tree, politely first', async () => {
    const terminals = manager();
    const t = task('tree');
    const pidfile = join(home, `tree-${t.id}.pids`);
    services.connections.add({ name: `tree-${t.id}`, providerId: 'svc-test.echo', baseArgs: ['--hang', '--with-child', '--pidfile', pidfile] });
    await terminals.start(t.id, { connection: `tree-${t.id}` });
    const pids = await waitFor(() => {
      try {
        const list = readFileSync(pidfile, 'utf8').trim().split('\n').map(Number);
        return list.length >= 2 ? list : undefined;
      } catch {
        return undefined;
      }
    }, 10_000, 'the CLI and its child');
    const started = Date.now();
    const ended = await terminals.stop(t.id);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(ended).toMatchObject({ status: 'COMPLETED', endReason: 'stopped', outcome: 'stopped' });
    for (const pid of pids) await waitFor(() => !isRunning(pid), 5_000, `pid ${pid} to end`);
  });

  test('forces a tree that ignores Ctrl-C and SIGTERM after the grace period', async () => {
    const terminals = manager({ stopGraceMs: 800, interruptMs: 100 });
    const t = task('stubborn');
    await terminals.start(t.id, { connection: 'stubborn' });
    const pid = Number(/stubborn (\d+)/.exec(await waitFor(() => /stubborn \d+/.test(screen(terminals, t.id)) && screen(terminals, t.id), 10_000, 'the pid'))![1]);
    const started = Date.now();
    const ended = await terminals.stop(t.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(ended).toMatchObject({ status: 'COMPLETED', endReason: 'stopped', outcome: 'stopped', exitSignal: 9 });
    await waitFor(() => !isRunning(pid), 5_000, 'the stubborn shell to end');
  });
});

describe('stop all', () => {
  test('stops every live terminal, a parked one too, as a Stop (not a failure); the service still takes a start after it', async () => {
    const terminals = manager();
    const tasks = Array.from({ length: 3 }, (_, i) => task(`all ${i}`));
    await Promise.all(tasks.map((t) => terminals.start(t.id, { connection: 'echo' })));
    for (const t of tasks) await waitFor(() => screen(terminals, t.id).includes('echo-cli interactive'), 10_000, `task ${t.id}`);
    terminals.pause(tasks[0]!.id);
    const { stopped, calledOff } = await terminals.stopAll();
    expect(calledOff).toEqual([]);
    expect(stopped.map((execution) => execution.taskId).sort()).toEqual(tasks.map((t) => t.id).sort());
    for (const t of tasks) expect(services.domain.executions.latestForTask(t.id)).toMatchObject({ status: 'COMPLETED', endReason: 'stopped', outcome: 'stopped' });
    expect(terminals.list().filter((s) => s.state !== 'ENDED')).toHaveLength(0);
    expect(await terminals.stopAll()).toEqual({ stopped: [], calledOff: [] });
    await terminals.start(tasks[1]!.id, { connection: 'echo' });
    expect(terminals.summary(tasks[1]!.id)).toMatchObject({ state: 'RUNNING' });
    await terminals.stop(tasks[1]!.id);
  });

  test('a terminal still starting when Stop all is pressed is stopped as soon as it is up, as a Stop', async () => {
    const running = task('running');
    const late = task('still starting');
    let preparing = () => {};
    const prepared = new Promise<void>((resolve) => (preparing = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const terminals = manager({}, {
      // The late task's workspace takes a while to set up (a worktree, say): its start is under way meanwhile.
      prepareWorkspace: async (taskId) => {
        if (taskId === late.id) {
          preparing();
          await released;
        }
        return { cwd: repo };
      },
    });
    await terminals.start(running.id, { connection: 'echo' });
    const starting = terminals.start(late.id, { connection: 'echo' });
    await prepared;
    const stopping = terminals.stopAll();
    release();
    const [, { stopped, calledOff }] = await Promise.all([starting, stopping]);
    expect(calledOff).toEqual([]);
    expect(stopped.map((execution) => execution.taskId).sort()).toEqual([running.id, late.id].sort());
    for (const t of [running, late]) expect(services.domain.executions.latestForTask(t.id)).toMatchObject({ status: 'COMPLETED', endReason: 'stopped', outcome: 'stopped' });
    expect(terminals.list().filter((s) => s.state !== 'ENDED')).toHaveLength(0);
  });

  test('a start still preparing when Stop all stops waiting is called off: its CLI never starts, and the task starts again later', async () => {
    const running = task('running');
    const late = task('too slow for Stop all');
    let preparing = () => {};
    const prepared = new Promise<void>((resolve) => (preparing = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let slow = true;
    const terminals = manager({}, {
      startWaitMs: 50,
      prepareWorkspace: async (taskId) => {
        if (taskId === late.id && slow) {
          preparing();
          await released;
        }
        return { cwd: repo };
      },
    });
    await terminals.start(running.id, { connection: 'echo' });
    const starting = terminals.start(late.id, { connection: 'echo' }).catch((error: unknown) => error);
    await prepared;
    const { stopped, calledOff } = await terminals.stopAll();
    expect(stopped.map((execution) => execution.taskId)).toEqual([running.id]);
    expect(calledOff).toEqual([late.id]);
    // Still preparing, but no longer counted as starting: it ends without a terminal.
    expect(terminals.startingTasks()).toEqual([]);
    release();
    expect(await starting).toMatchObject({ code: 'cancelled' });
    expect(services.domain.executions.latestForTask(late.id)).toBeUndefined();
    expect(terminals.startingTasks()).toEqual([]);
    slow = false;
    const again = await terminals.start(late.id, { connection: 'echo' });
    expect(terminals.summary(late.id)).toMatchObject({ state: 'RUNNING' });
    await terminals.stop(again.taskId);
  });
});

describe('shutdown', () => {
  test('a shutdown that ends every terminal waits for one still starting, then stops it once it is up', async () => {
    const late = task('starting at shutdown');
    let preparing = () => {};
    const prepared = new Promise<void>((resolve) => (preparing = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const terminals = manager({}, {
      prepareWorkspace: async () => {
        preparing();
        await released;
        return { cwd: repo };
      },
    });
    const starting = terminals.start(late.id, { connection: 'echo' });
    await prepared;
    expect(terminals.startingTasks()).toEqual([late.id]);
    const closing = terminals.close({ stopTerminals: true });
    release();
    const [execution] = await Promise.all([starting, closing]);
    expect(services.domain.executions.get(execution.id)).toMatchObject({ status: 'COMPLETED', endReason: 'service_shutdown' });
    await waitFor(() => !isRunning(execution.pid!), 5_000, 'the CLI to end');
    expect(terminals.startingTasks()).toEqual([]);
  });

  test('a start still under way when the shutdown stops waiting never opens its CLI', async () => {
    const late = task('too slow for the shutdown');
    let preparing = () => {};
    const prepared = new Promise<void>((resolve) => (preparing = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const terminals = manager({}, {
      startWaitMs: 50,
      prepareWorkspace: async () => {
        preparing();
        await released;
        return { cwd: repo };
      },
    });
    const starting = terminals.start(late.id, { connection: 'echo' }).catch((error: unknown) => error);
    await prepared;
    await terminals.close({ stopTerminals: true });
    release();
    expect(await starting).toMatchObject({ code: 'service_stopping' });
    expect(services.domain.executions.latestForTask(late.id)).toBeUndefined();
  });
});

describe('resume', () => {
  test('is fresh without history, then continues the stored session on the same connection', async () => {
    const terminals = manager();
    const t = task('resumable');
    const first = await terminals.resume(t.id, { connection: 'probe' });
    expect(first.mode).toBe('fresh');
    await waitFor(() => screen(terminals, t.id).includes('ARGS'), 10_000, 'the first banner');
    await terminals.stop(t.id);

    const second = await terminals.resume(t.id);
    expect(second).toMatchObject({ mode: 'resume', sessionId: null, connectionName: 'probe' });
    await waitFor(() => screen(terminals, t.id).includes('ENV'), 10_000, 'the second banner');
    expect(screen(terminals, t.id)).toContain('ARGS --interactive\r\n');
    terminals.recordSessionId(second.id, 'sess-42');
    await terminals.stop(t.id);

    const third = await terminals.resume(t.id);
    expect(third).toMatchObject({ mode: 'resume', sessionId: 'sess-42' });
    await waitFor(() => screen(terminals, t.id).includes('--session sess-42'), 10_000, 'the session id on the command line');
    await terminals.stop(t.id);

    const fresh = await terminals.resume(t.id, { fresh: true });
    expect(fresh).toMatchObject({ mode: 'fresh', sessionId: null });
    await terminals.stop(t.id);
  });

  test('says which connection is needed when the task never ran', async () => {
    await expect(manager().resume(task('never').id)).rejects.toMatchObject({ code: 'connection_required' });
  });
});

describe('scrollback', () => {
  test('a flood of output keeps memory at the bound and readers learn what they missed', async () => {
    const terminals = manager({ scrollbackBytes: 16 * 1024 });
    const t = task('flood');
    await terminals.start(t.id, { connection: 'flood' });
    await waitFor(() => screen(terminals, t.id).includes('echo-cli interactive'), 15_000, 'the end of the flood');
    const read = terminals.read(t.id, 0, 1 << 20);
    expect(read.behind).toBe(true);
    expect(read.end - read.start).toBeLessThanOrEqual(16 * 1024);
    expect(read.missedBytes).toBeGreaterThan(200_000);
    expect(read.data.toString('utf8')).toContain('50000\r\n');
    await terminals.stop(t.id);
  });

  test('a resumed terminal continues the task cursor', async () => {
    const terminals = manager();
    const t = task('cursor');
    await terminals.start(t.id, { connection: 'echo' });
    await waitFor(() => screen(terminals, t.id).includes('> '), 10_000, 'the prompt');
    await terminals.stop(t.id);
    const before = terminals.read(t.id, undefined).end;
    await terminals.resume(t.id);
    await waitFor(() => terminals.read(t.id, before).data.toString('utf8').includes('echo-cli interactive'), 10_000, 'the new banner');
    expect(terminals.read(t.id, undefined).start).toBe(before);
    await terminals.stop(t.id);
  });
});

describe('disconnect keepalive', () => {
  test('stops a running terminal nobody is attached to after the configured time', async () => {
    const terminals = manager({ keepaliveMs: 600 });
    const t = task('unwatched');
    const execution = await terminals.start(t.id, { connection: 'echo' });
    const ended = await terminals.waitForEnd(t.id);
    expect(ended).toMatchObject({ id: execution.id, status: 'COMPLETED', endReason: 'keepalive', outcome: 'stopped' });
  });

  test('does not run while someone is attached, and restarts in full when they leave', async () => {
    const terminals = manager({ keepaliveMs: 600 });
    const t = task('watched');
    await terminals.start(t.id, { connection: 'echo' });
    const stream = terminals.openStream(t.id);
    stream.resume();
    await new Promise((r) => setTimeout(r, 1200));
    expect(terminals.summary(t.id)).toMatchObject({ state: 'RUNNING', attached: 1, keepaliveRemainingMs: null });
    const left = Date.now();
    stream.destroy();
    const ended = await terminals.waitForEnd(t.id);
    expect(Date.now() - left).toBeGreaterThanOrEqual(550);
    expect(ended.endReason).toBe('keepalive');
  });

  test('is suspended while the execution is PAUSED and resumes with the time left', async () => {
    const terminals = manager({ keepaliveMs: 800 });
    const t = task('parked');
    const execution = await terminals.start(t.id, { connection: 'echo' });
    await new Promise((r) => setTimeout(r, 300));
    expect(terminals.pause(t.id).status).toBe('PAUSED');
    await new Promise((r) => setTimeout(r, 1500));
    expect(services.domain.executions.get(execution.id).status).toBe('PAUSED');
    expect(terminals.summary(t.id)?.state).toBe('PAUSED');
    const unparked = Date.now();
    expect(terminals.unpause(t.id).status).toBe('RUNNING');
    const ended = await terminals.waitForEnd(t.id);
    expect(ended.endReason).toBe('keepalive');
    // It had used about 300 ms of its 800 before it was parked.
    expect(Date.now() - unparked).toBeLessThan(750);
  });
});

describe('many terminals', () => {
  test('run at once, each with its own bounded buffer', async () => {
    const terminals = manager({ scrollbackBytes: 8192 });
    const tasks = Array.from({ length: 6 }, (_, i) => task(`many ${i}`));
    await Promise.all(tasks.map((t) => terminals.start(t.id, { connection: 'echo' })));
    for (const t of tasks) terminals.write(t.id, `hello ${t.id}\r`);
    for (const t of tasks) await waitFor(() => screen(terminals, t.id).includes(`echo: hello ${t.id}`), 15_000, `task ${t.id}`);
    expect(terminals.list().filter((s) => s.state === 'RUNNING')).toHaveLength(6);
    await terminals.close();
    for (const t of tasks) expect(services.domain.executions.latestForTask(t.id)).toMatchObject({ status: 'COMPLETED', endReason: 'service_shutdown', outcome: 'interrupted' });
  });
});

describe('after a restart', () => {
  test('live executions end interrupted (resumable) and only provably-ours leftovers are killed', async () => {
    const ours = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    const stranger = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    await waitFor(() => processStartTime(ours.pid!) && processStartTime(stranger.pid!), 5_000, 'the sleeps');
    const plant = (title: string, pid: number, startTime: string) => {
      const t = task(title);
      const e = services.domain.executions.create({ taskId: t.id, connectionId: null, connectionName: 'echo', providerId: 'svc-test.echo', mode: 'fresh', sessionId: null });
      services.domain.executions.setProcess(e.id, pid, startTime);
      return e.id;
    };
    const mine = plant('left by a dead service', ours.pid!, processStartTime(ours.pid!)!);
    const reused = plant('pid reused since', stranger.pid!, 'linux:1');
    const paused = plant('parked when it died', 999_999_9, 'linux:1');
    services.domain.executions.setLiveStatus(paused, 'PAUSED');

    const report = recoverOrphanedExecutions(services.domain.executions, services.logger);
    expect(report.interrupted).toEqual(expect.arrayContaining([mine, reused, paused]));
    for (const id of [mine, reused, paused]) {
      expect(services.domain.executions.get(id)).toMatchObject({ status: 'COMPLETED', endReason: 'service_restart', outcome: 'interrupted', error: { code: 'service_restarted' } });
    }
    await waitFor(() => ours.exitCode !== null || ours.signalCode !== null, 5_000, 'our leftover to be killed');
    expect(ours.signalCode).toBe('SIGKILL');
    expect(isRunning(stranger.pid!)).toBe(true);
    stranger.kill('SIGKILL');
  });

  test('with the terminal holder: a running terminal is taken back, an end while away is recorded as it was, a terminal nobody claims is ended', async () => {
    const holderHome = mkdtempSync(join(tmpdir(), 'svc-recovery-holder-'));
    try {
      const holder = await startHolder(holderHome, 'recovery', ensureHolderSecret(holderHome));
      const plant = (title: string) => {
        const t = task(title);
        return services.domain.executions.create({ taskId: t.id, connectionId: null, connectionName: 'echo', providerId: 'svc-test.echo', mode: 'fresh', sessionId: null });
      };
      const spawnFor = (execution: { id: number; taskId: number }, script: string) =>
        holder.spawn({
          command: '/bin/sh',
          args: ['-c', script],
          cwd: holderHome,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
          name: 'xterm-256color',
          cols: 80,
          rows: 24,
          meta: { taskId: execution.taskId, executionId: execution.id },
          scrollbackBytes: 64 * 1024,
          startOffset: 0,
          keepaliveMs: 3_600_000,
          interruptMs: 100,
          stopGraceMs: 1000,
        });
      const running = plant('still running');
      const runningPty = await spawnFor(running, 'read line');
      services.domain.executions.setProcess(running.id, runningPty.pid, processStartTime(runningPty.pid) ?? null);
      const ended = plant('ended while away');
      const endedPty = await spawnFor(ended, 'read line; sleep 0.3; exit 5');
      const unclaimed = plant('its record ended meanwhile');
      const unclaimedPty = await spawnFor(unclaimed, 'read line');
      services.domain.executions.finish(unclaimed.id, { status: 'FAILED', endReason: 'exited', exitCode: 1 });
      endedPty.write('bye\r');
      holder.close();
      await waitFor(() => !isRunning(endedPty.pid), 5_000, 'the CLI to end');

      const held = (await connectHolders(holderHome, ensureHolderSecret(holderHome))).flatMap((connection) => connection.held.map((terminal) => ({ connection, terminal })));
      const report = recoverOrphanedExecutions(services.domain.executions, services.logger, { held, exits: takeHolderExits(holderHome) });
      expect(report.reattach.map((entry) => entry.execution.id)).toEqual([running.id]);
      expect(report.endedAway).toEqual([ended.id]);
      expect(services.domain.executions.get(ended.id)).toMatchObject({ status: 'FAILED', outcome: 'failed', endReason: 'exited', exitCode: 5 });
      expect(services.domain.executions.get(running.id)).toMatchObject({ status: 'RUNNING' });
      expect(report.killed).toEqual([unclaimedPty.pid]);
      await waitFor(() => !isRunning(unclaimedPty.pid), 5_000, 'the unclaimed terminal to end');
      expect(isRunning(runningPty.pid)).toBe(true);
      for (const entry of held) entry.connection.close();
    } finally {
      rmSync(holderHome, { recursive: true, force: true });
    }
  });
});
