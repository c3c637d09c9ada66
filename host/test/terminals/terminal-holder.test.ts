// The terminal holder as a real process (host/dist/terminal-holder.mjs, from `pnpm build`): its
// PTYs outlive the connection that made them, a new connection takes them back with their
// scrollback, and only this user with the secret gets in.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { HolderConnection, type HolderPty } from '../../src/features/terminals/holder/holder-client.js';
import { connect } from 'node:net';
import {
  FrameDecoder,
  dataFrame,
  holderPaths,
  holderProof,
  jsonFrame,
  type HolderFrame,
  type HolderMessage,
  type HolderSpawnRequest,
} from '../../src/features/terminals/holder/holder-protocol.js';
import { connectHolders, ensureHolderSecret, listHolderDescriptions, startHolder, takeHolderExits } from '../../src/features/terminals/holder/holder-registry.js';
import { isAlive } from '../../src/platform/processes/index.js';

const homes: string[] = [];
const connections: HolderConnection[] = [];

afterEach(() => {
  for (const connection of connections.splice(0)) connection.close();
  // Removing SVC_HOME ends its holders and their terminals (they watch their socket file).
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'svc-holder-'));
  chmodSync(home, 0o700);
  homes.push(home);
  return home;
}

async function until<T>(probe: () => T | undefined | false, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function holderOf(home: string, build = 'test-1', env: NodeJS.ProcessEnv = process.env): Promise<HolderConnection> {
  const connection = await startHolder(home, build, ensureHolderSecret(home), env);
  connections.push(connection);
  return connection;
}

function shell(home: string, script: string, meta: { taskId: number; executionId: number }, extra: Partial<HolderSpawnRequest> = {}): HolderSpawnRequest {
  return {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
    name: 'xterm-256color',
    cols: 80,
    rows: 24,
    meta,
    scrollbackBytes: 64 * 1024,
    startOffset: 0,
    keepaliveMs: 3_600_000,
    interruptMs: 100,
    stopGraceMs: 1000,
    ...extra,
  };
}

function collect(terminal: HolderPty): { text: () => string; exit: Promise<{ exitCode: number; signal?: number }> } {
  const chunks: Buffer[] = [];
  terminal.onData((data) => chunks.push(Buffer.from(data)));
  const exit = new Promise<{ exitCode: number; signal?: number }>((resolve) => terminal.onExit(resolve));
  return { text: () => Buffer.concat(chunks).toString('utf8'), exit };
}

/** A service's side of the wire, written out: the handshake at `protocol`, then every frame the holder sends, in order. */
async function wire(socketPath: string, secret: string, protocol: number) {
  const frames: HolderFrame[] = [];
  const decoder = new FrameDecoder();
  const socket = connect(socketPath);
  socket.on('data', (chunk: Buffer) => {
    for (const frame of decoder.push(chunk)) {
      if (frame.kind === 'json' && frame.message.t === 'hello' && 'nonce' in frame.message) {
        socket.write(jsonFrame({ t: 'hello', protocol, build: frame.message.build, proof: holderProof(secret, frame.message.nonce) }));
      }
      frames.push(frame);
    }
  });
  const messages = () => frames.flatMap((frame) => (frame.kind === 'json' ? [frame.message] : []));
  const message = <T extends HolderMessage['t']>(t: T) => messages().find((each): each is Extract<HolderMessage, { t: T }> => each.t === t);
  const output = (id: number) => Buffer.concat(frames.flatMap((frame) => (frame.kind === 'data' && frame.id === id ? [frame.data] : []))).toString('utf8');
  await until(() => message('welcome') ?? message('refused'), 'the handshake');
  return { socket, messages, message, output, send: (frame: Buffer) => socket.write(frame) };
}

// An echo loop: prints what it reads, so input typed through the holder shows in the output.
const ECHO = 'printf "ready %s\\n" "$$"; while read line; do echo "got:$line"; done';

describe('the terminal holder', () => {
  test('a terminal outlives the connection: a new one takes it back with the same pid, its scrollback and its input', async () => {
    const home = newHome();
    const first = await holderOf(home);
    const pty = await first.spawn(shell(home, ECHO, { taskId: 7, executionId: 70 }, { prelude: 'set-up done\r\n' }));
    const seen = collect(pty);
    await until(() => seen.text().includes('ready'), 'the prompt');
    pty.write('before\r');
    await until(() => seen.text().includes('got:before'), 'the first echo');
    first.close();

    const secret = ensureHolderSecret(home);
    const [second] = await connectHolders(home, secret);
    connections.push(second!);
    expect(second!.info.build).toBe('test-1');
    expect(second!.held).toEqual([expect.objectContaining({ pid: pty.pid, state: 'RUNNING', meta: { taskId: 7, executionId: 70 } })]);
    expect(isAlive(pty.pid)).toBe(true);
    const again = await second!.attach(second!.held[0]!.id);
    expect(again.pid).toBe(pty.pid);
    const replay = collect(again);
    await until(() => replay.text().includes('got:before'), 'the replayed scrollback');
    expect(replay.text().startsWith('set-up done')).toBe(true);
    again.write('after\r');
    await until(() => replay.text().includes('got:after'), 'the echo after reattaching');
  });

  test('a spawn is one request: the holder answers it following the new terminal, whose set-up output, output and end come without an attach', async () => {
    const home = newHome();
    const holder = await holderOf(home);
    expect(holder.info.protocol).toBe(2);
    const service = await wire(holder.info.socket, ensureHolderSecret(home), 2);
    expect(service.message('welcome')).toMatchObject({ protocol: 2 });
    const request = shell(home, 'echo out; read line; exit 5', { taskId: 3, executionId: 30 }, { prelude: 'set-up done\r\n', startOffset: 40 });
    service.send(jsonFrame({ t: 'spawn', rid: 1, request, follow: true }));
    const spawned = await until(() => service.message('spawned'), 'the answer');
    expect(spawned).toMatchObject({ rid: 1, from: 40, terminal: { start: 40, meta: { taskId: 3, executionId: 30 } } });
    await until(() => service.output(spawned.terminal.id).includes('out'), 'the output');
    service.send(dataFrame(spawned.terminal.id, 'bye\r'));
    expect(await until(() => service.message('exit'), 'the end')).toEqual({ t: 'exit', id: spawned.terminal.id, exit: { exitCode: 5, signal: null, reason: 'exited' } });
    expect(service.output(spawned.terminal.id)).toMatch(/^set-up done\r\nout\r\nbye/);
    expect(service.messages().map((message) => message.t)).toEqual(['hello', 'welcome', 'spawned', 'exit']);
    service.socket.destroy();

    // The service's own side: the set-up output that comes right behind the answer reaches the terminal.
    const pty = await holder.spawn(shell(home, ECHO, { taskId: 4, executionId: 40 }, { prelude: 'set-up done\r\n' }));
    const seen = collect(pty);
    await until(() => seen.text().includes('ready'), 'the prompt');
    expect(seen.text().startsWith('set-up done\r\nready')).toBe(true);
  });

  test('a service that speaks only protocol 1 spawns and then attaches, and gets the same terminal', async () => {
    const home = newHome();
    const holder = await holderOf(home);
    const older = await HolderConnection.connect(holder.info.socket, ensureHolderSecret(home), [1]);
    connections.push(older);
    expect(older.info.protocol).toBe(1);
    const pty = await older.spawn(shell(home, 'echo out; read line; exit 6', { taskId: 5, executionId: 50 }, { prelude: 'set-up done\r\n' }));
    const seen = collect(pty);
    await until(() => seen.text().includes('out'), 'the output');
    pty.write('bye\r');
    expect(await seen.exit).toEqual({ exitCode: 6 });
    expect(seen.text()).toMatch(/^set-up done\r\nout\r\nbye/);
  });

  test('an end is listed to the next service with its exit code; only one no service followed goes to the exit log', async () => {
    const home = newHome();
    const first = await holderOf(home);
    const pty = await first.spawn(shell(home, 'read line; sleep 0.3; exit 3', { taskId: 1, executionId: 11 }));
    const followed = await first.spawn(shell(home, 'read line; exit 4', { taskId: 2, executionId: 22 }));
    // An end a service follows is told to it (and not logged: that service records it).
    const seen = collect(followed).exit;
    followed.write('bye\r');
    expect((await seen).exitCode).toBe(4);
    // The other one ends after the service left.
    pty.write('bye\r');
    first.close();
    await until(() => !isAlive(pty.pid), 'the CLI to end');

    const secret = ensureHolderSecret(home);
    const later = (await connectHolders(home, secret))[0]!;
    connections.push(later);
    // Both ends are listed until a service records and releases them.
    expect(later.held).toEqual([
      expect.objectContaining({ pid: pty.pid, state: 'ENDED', exit: { exitCode: 3, signal: null, reason: 'exited' } }),
      expect.objectContaining({ pid: followed.pid, state: 'ENDED', exit: { exitCode: 4, signal: null, reason: 'exited' } }),
    ]);
    const exits = await until(() => takeHolderExits(home), 'the exit log');
    expect([...exits.keys()]).toEqual([11]);
    expect(exits.get(11)).toEqual(expect.objectContaining({ taskId: 1, pid: pty.pid, exit: { exitCode: 3, signal: null, reason: 'exited' } }));
    expect(takeHolderExits(home).size).toBe(0);
  });

  test('a wrong handshake is refused, and another user cannot even open the socket', async () => {
    const home = newHome();
    const holder = await holderOf(home);
    await expect(HolderConnection.connect(holder.info.socket, 'not-the-secret')).rejects.toMatchObject({ code: 'holder_refused' });
    expect(statSync(holder.info.socket).mode & 0o777).toBe(0o600);
    expect(statSync(holderPaths(home).secret).mode & 0o777).toBe(0o600);
    if (process.getuid?.() === 0) {
      // As `nobody`: the folder and the socket are this user's only.
      const script = `require('net').connect(${JSON.stringify(holder.info.socket)}).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(0)})`;
      const answer = execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script], { encoding: 'utf8' }).trim();
      expect(answer).toBe('EACCES');
    }
  });

  test('a holder with no terminal and no service exits; a retired one exits when its last terminal ends', async () => {
    const home = newHome();
    const idle = await holderOf(home, 'idle', { ...process.env, SVC_TERMINAL_HOLDER_IDLE_MS: '200' });
    idle.close();
    await until(() => !isAlive(idle.info.pid), 'the idle holder to exit');
    expect(existsSync(holderPaths(home).socket('idle'))).toBe(false);

    const old = await holderOf(home, 'old');
    const pty = await old.spawn(shell(home, 'read line', { taskId: 2, executionId: 21 }));
    old.retire();
    await expect(old.spawn(shell(home, 'true', { taskId: 3, executionId: 31 }))).rejects.toMatchObject({ code: 'holder_refused' });
    expect(isAlive(old.info.pid)).toBe(true);
    pty.write('done\r');
    await until(() => !isAlive(old.info.pid), 'the retired holder to exit after its last terminal');
    expect(listHolderDescriptions(home)).toEqual([]);
  });

  test('with no service attached the holder applies the keepalive itself, and not while the terminal is parked', async () => {
    const home = newHome();
    const holder = await holderOf(home);
    const parked = await holder.spawn(shell(home, ECHO, { taskId: 4, executionId: 41 }, { keepaliveMs: 300 }));
    const running = await holder.spawn(shell(home, ECHO, { taskId: 5, executionId: 51 }, { keepaliveMs: 300 }));
    parked.park(true);
    holder.close();
    await until(() => takeHolderExits(home).get(51), 'the keepalive to stop the running terminal').then((record) =>
      expect(record.exit.reason).toBe('keepalive'),
    );
    const back = (await connectHolders(home, ensureHolderSecret(home)))[0]!;
    connections.push(back);
    expect(back.held.find((held) => held.meta.executionId === 41)).toEqual(expect.objectContaining({ state: 'PAUSED' }));
    expect(isAlive(parked.pid)).toBe(true);
    expect(isAlive(running.pid)).toBe(false);
  });

  test('a holder that cannot start is refused with the path of its log, which says why', async () => {
    const home = newHome();
    const broken = join(home, 'broken-holder.mjs');
    writeFileSync(broken, "process.stderr.write('the holder could not listen\\n'); process.exit(1);\n");
    const failure = await startHolder(home, 'broken', ensureHolderSecret(home), { ...process.env, SVC_TERMINAL_HOLDER_FILE: broken }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'holder_start_failed', message: expect.stringContaining(holderPaths(home).log('broken')) });
    expect(readFileSync(holderPaths(home).log('broken'), 'utf8')).toContain('the holder could not listen');
    expect(statSync(holderPaths(home).log('broken')).mode & 0o777).toBe(0o600);
  });

  test('a service that attaches while output streams gets every byte once, in order: the scrollback, then the live output, then the end', async () => {
    const home = newHome();
    const first = await holderOf(home);
    // Bursts of output with pauses between them, then an end.
    const script = 'for burst in 1 2 3 4 5 6 7 8 9 10 11 12; do seq 1 4000; sleep 0.05; done; exit 4';
    const pty = await first.spawn(shell(home, script, { taskId: 8, executionId: 80 }, { scrollbackBytes: 4 * 1024 * 1024 }));
    const following = collect(pty);
    const burst = Array.from({ length: 4000 }, (_, i) => `${i + 1}\r\n`).join('');
    await until(() => following.text().length >= burst.length, 'the first burst');
    const [second] = await connectHolders(home, ensureHolderSecret(home));
    connections.push(second!);
    const late = collect(await second!.attach(second!.held[0]!.id, 0));
    expect(await following.exit).toMatchObject({ exitCode: 4 });
    expect(await late.exit).toMatchObject({ exitCode: 4 });
    expect(following.text()).toBe(burst.repeat(12));
    expect(late.text()).toBe(burst.repeat(12));
  });

  test('a flood of output reaches a slow service whole: the PTY waits while the socket is full, beyond the scrollback bound', async () => {
    const home = newHome();
    const holder = await holderOf(home);
    const lines = 300_000;
    // The CLI stays after its output (node-pty may drop the tail of a process that exits at once).
    const pty = await holder.spawn(shell(home, `seq 1 ${lines}; exec sleep 30`, { taskId: 9, executionId: 90 }, { scrollbackBytes: 256 * 1024 }));
    let received = 0;
    pty.onData((data) => {
      received += data.length;
      // A busy service: it reads its socket late.
      const until = Date.now() + 2;
      while (Date.now() < until);
    });
    // Each line and its CR LF (the PTY turns LF into CR LF): about 2.3 MB, 9 times the scrollback and twice what the holder lets wait in a socket.
    const expected = Array.from({ length: lines }, (_, i) => String(i + 1).length + 2).reduce((sum, n) => sum + n, 0);
    await until(() => received >= expected, 'all of the output', 60_000);
    expect(received).toBe(expected);
  });
});
