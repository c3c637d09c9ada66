// The terminal holder: a small process, apart from `svc serve`, that owns the task terminals' PTYs
// so a crash, restart or upgrade of the service leaves every CLI running.
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import * as pty from 'node-pty';
import { processStartTime } from '../../../platform/processes/index.js';
import { Terminal } from '../terminal.js';
import {
  FrameDecoder,
  HOLDER_PROTOCOLS,
  commonProtocol,
  DATA_HEADER_BYTES,
  dataHeader,
  holderPaths,
  jsonFrame,
  proofMatches,
  writeDataHeader,
  type HeldTerminal,
  type HeldTerminalExit,
  type HeldTerminalMeta,
  type HolderDescription,
  type HolderExitRecord,
  type HolderMessage,
  type HolderSpawnRequest,
} from './holder-protocol.js';

const READ_CHUNK = 256 * 1024;
// How much output may wait in a connection's socket before the PTY is no longer read.
const IN_FLIGHT_BYTES = 1024 * 1024;
// While output streams, a connection's writes are at least this far apart (see Client.scheduleFlush);
// VS Code's pty host gathers terminal output for the same 5 ms.
const GATHER_MS = 5;
// A client has this long to answer the challenge.
const HELLO_TIMEOUT_MS = 5000;
// How often the holder checks that its socket file is still there (SVC_HOME removed: it ends all).
const WATCH_MS = 2000;

export interface TerminalHolderOptions {
  svcHome: string;
  build: string;
  /** Exits after this long with no live terminal and no service attached. */
  idleMs: number;
}

interface Held {
  id: number;
  terminal: Terminal;
  pty: pty.IPty;
  /** The connections whose socket is full: while any is, the PTY is not read (the CLI waits, as at a slow terminal). */
  blockedBy: Set<Client>;
  meta: HeldTerminalMeta;
  exit?: HeldTerminalExit;
  keepaliveExpired: boolean;
}

/** One service connection: which terminals it follows, and from which offset each. */
class Client {
  authenticated = false;
  readonly following = new Map<number, { cursor: number; release: () => void; unsubscribe: () => void; exitSent: boolean }>();
  private waitingForDrain = false;
  /** Live output not yet written, per terminal: it goes out in one write (see scheduleFlush). */
  private readonly queued = new Map<number, Buffer[]>();
  private queuedBytes = 0;
  private flushTimer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private lastFlushAt = -Infinity;

  constructor(readonly socket: Socket, private readonly holder: TerminalHolder) {}

  send(message: HolderMessage): void {
    if (this.socket.destroyed) return;
    // Output queued before this message goes first.
    this.flush();
    this.socket.write(jsonFrame(message));
  }

  /**
   * Answers a request with `answer` and follows the terminal: its scrollback from `from`, then its
   * live output, then its end (pump sends each in order). The answer and the output already there
   * go out in one write.
   */
  follow(answer: HolderMessage, held: Held, from: number): void {
    this.socket.cork();
    this.send(answer);
    this.unfollow(held.id);
    const release = held.terminal.attach();
    const unsubscribe = held.terminal.onActivity((output) => (output ? this.output(held, output) : this.pump()));
    this.following.set(held.id, { cursor: from, release, unsubscribe, exitSent: false });
    this.pump();
    this.socket.uncork();
  }

  unfollow(id: number): void {
    const entry = this.following.get(id);
    if (!entry) return;
    entry.unsubscribe();
    entry.release();
    this.following.delete(id);
    const dropped = this.queued.get(id);
    if (dropped) this.queuedBytes -= dropped.reduce((sum, chunk) => sum + chunk.length, 0);
    this.queued.delete(id);
  }

  /**
   * New output of a followed terminal. A follower that is caught up takes the chunk as it came (no
   * copy out of the scrollback: node-pty hands each read in a buffer of its own, kept until the
   * flush); one that is behind reads the scrollback from its cursor.
   */
  private output(held: Held, chunk: Buffer): void {
    const entry = this.following.get(held.id);
    if (!entry || this.waitingForDrain || this.socket.destroyed || !this.authenticated) return;
    const end = held.terminal.buffer.end;
    if (entry.cursor !== end - chunk.length) {
      this.pump();
      return;
    }
    entry.cursor = end;
    const chunks = this.queued.get(held.id);
    if (chunks) chunks.push(chunk);
    else this.queued.set(held.id, [chunk]);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes >= READ_CHUNK) this.flush();
    else this.scheduleFlush();
  }

  /**
   * The first output after a quiet spell goes out at the end of this event-loop turn (a keystroke's
   * echo waits for nothing); while output streams, it gathers for up to GATHER_MS, so a flood costs
   * a write (and a wake-up of the service) per few milliseconds, not per PTY read.
   */
  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    const wait = this.lastFlushAt + GATHER_MS - performance.now();
    const run = () => {
      this.flushTimer = undefined;
      this.flush();
    };
    this.flushTimer = wait > 0 ? setTimeout(run, wait) : setImmediate(run);
  }

  /** Writes the queued output: one data frame per terminal, all in one write. */
  private flush(): void {
    if (this.queuedBytes === 0 || this.socket.destroyed) return;
    const frame = Buffer.allocUnsafe(this.queuedBytes + this.queued.size * DATA_HEADER_BYTES);
    let at = 0;
    for (const [id, chunks] of this.queued) {
      const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      at = writeDataHeader(frame, at, id, length);
      for (const chunk of chunks) at += chunk.copy(frame, at);
    }
    this.queued.clear();
    this.queuedBytes = 0;
    this.lastFlushAt = performance.now();
    this.socket.write(frame);
    this.holdBackWhenFull();
  }

  /** Sends what each followed terminal has beyond this client's cursor, as fast as the socket takes it. */
  pump(): void {
    if (this.waitingForDrain || this.socket.destroyed || !this.authenticated) return;
    this.flush();
    if (this.waitingForDrain) return;
    for (const [id, entry] of this.following) {
      const held = this.holder.held(id);
      if (!held) continue;
      const buffer = held.terminal.buffer;
      while (entry.cursor < buffer.end) {
        const read = buffer.read(Math.max(entry.cursor, buffer.start), READ_CHUNK);
        if (read.data.length === 0) break;
        entry.cursor = read.cursor;
        // The read is a fresh copy: it goes out after its header as it is.
        this.socket.cork();
        this.socket.write(dataHeader(id, read.data.length));
        this.socket.write(read.data);
        this.socket.uncork();
        if (this.holdBackWhenFull()) return;
      }
      // The end follows the last of the output.
      if (held.exit && !entry.exitSent && entry.cursor >= buffer.end) {
        entry.exitSent = true;
        this.send({ t: 'exit', id, exit: held.exit });
      }
    }
  }

  /** Flow control: while the socket holds too much, no followed PTY is read; the drain resumes them. */
  private holdBackWhenFull(): boolean {
    if (this.socket.writableLength <= IN_FLIGHT_BYTES) return false;
    this.waitingForDrain = true;
    const blocked = [...this.following.keys()].flatMap((followed) => this.holder.held(followed) ?? []);
    for (const other of blocked) this.holder.block(other, this);
    this.socket.once('drain', () => {
      this.waitingForDrain = false;
      for (const other of blocked) this.holder.unblock(other, this);
      this.pump();
    });
    return true;
  }

  close(): void {
    for (const id of [...this.following.keys()]) {
      const held = this.holder.held(id);
      if (held) this.holder.unblock(held, this);
      this.unfollow(id);
    }
  }
}

export class TerminalHolder {
  private readonly terminals = new Map<number, Held>();
  private readonly clients = new Set<Client>();
  private readonly paths: ReturnType<typeof holderPaths>;
  private readonly secret: string;
  private server: Server | undefined;
  private nextId = 1;
  private retired = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private exiting = false;

  constructor(private readonly options: TerminalHolderOptions) {
    this.paths = holderPaths(options.svcHome);
    this.secret = readSecret(this.paths.secret);
  }

  held(id: number): Held | undefined {
    return this.terminals.get(id);
  }

  /** Flow control: the PTY is not read while a follower's socket is full (no output is lost). */
  block(held: Held, client: Client): void {
    if (held.blockedBy.size === 0 && !held.exit) held.pty.pause();
    held.blockedBy.add(client);
  }

  unblock(held: Held, client: Client): void {
    if (!held.blockedBy.delete(client)) return;
    if (held.blockedBy.size === 0 && !held.exit) held.pty.resume();
  }

  async listen(): Promise<void> {
    const socketPath = this.paths.socket(this.options.build);
    rmSync(socketPath, { force: true });
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    // The socket is created private: umask first, chmod after (a socket's mode is what connect checks).
    const umask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socketPath, () => resolve());
      });
    } finally {
      process.umask(umask);
    }
    chmodSync(socketPath, 0o600);
    const description: HolderDescription = {
      pid: process.pid,
      pidStartTime: processStartTime(process.pid) ?? null,
      build: this.options.build,
      protocols: [...HOLDER_PROTOCOLS],
      socket: socketPath,
      startedAt: new Date().toISOString(),
    };
    const file = this.paths.description(this.options.build);
    writeFileSync(`${file}.tmp`, JSON.stringify(description), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    this.watchTimer = setInterval(() => {
      if (!existsSync(socketPath)) this.shutdown('socket removed', true);
    }, WATCH_MS);
    this.watchTimer.unref();
    this.checkIdle();
  }

  private accept(socket: Socket): void {
    const client = new Client(socket, this);
    const nonce = randomBytes(32).toString('hex');
    const decoder = new FrameDecoder();
    const helloTimer = setTimeout(() => socket.destroy(), HELLO_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = decoder.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const frame of frames) {
        if (!client.authenticated) {
          clearTimeout(helloTimer);
          if (frame.kind !== 'json' || !this.welcome(client, frame.message, nonce)) {
            socket.end();
            return;
          }
          continue;
        }
        if (frame.kind === 'data') {
          const held = this.terminals.get(frame.id);
          if (held && held.terminal.state !== 'ENDED') held.terminal.write(frame.data.toString('utf8'));
          continue;
        }
        this.handle(client, frame.message);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(helloTimer);
      client.close();
      this.clients.delete(client);
      this.checkIdle();
    });
    client.send({ t: 'hello', protocols: [...HOLDER_PROTOCOLS], build: this.options.build, pid: process.pid, nonce });
  }

  private welcome(client: Client, message: HolderMessage, nonce: string): boolean {
    if (message.t !== 'hello' || !('proof' in message)) return false;
    if (!proofMatches(this.secret, nonce, message.proof)) {
      client.send({ t: 'refused', code: 'holder_refused', message: 'the handshake proof does not match this holder secret' });
      return false;
    }
    const protocol = commonProtocol([message.protocol]);
    if (protocol === undefined) {
      client.send({ t: 'refused', code: 'holder_refused', message: `this holder speaks protocols ${HOLDER_PROTOCOLS.join(', ')}` });
      return false;
    }
    client.authenticated = true;
    this.clients.add(client);
    this.checkIdle();
    client.send({ t: 'welcome', protocol, build: this.options.build, pid: process.pid, terminals: [...this.terminals.values()].map(describe) });
    return true;
  }

  private handle(client: Client, message: HolderMessage): void {
    switch (message.t) {
      case 'spawn': {
        if (this.retired) {
          client.send({ t: 'failed', rid: message.rid, code: 'holder_refused', message: 'this holder takes no new terminals' });
          return;
        }
        let held: Held;
        try {
          held = this.spawn(message.request);
        } catch (error) {
          client.send({ t: 'failed', rid: message.rid, code: 'spawn_failed', message: `could not start ${message.request.command} in a terminal: ${(error as Error).message}` });
          return;
        }
        if (!message.follow) {
          client.send({ t: 'spawned', rid: message.rid, terminal: describe(held) });
          return;
        }
        // Followed from its first byte (the set-up output), as an attach would, without a second request.
        const from = held.terminal.buffer.start;
        client.follow({ t: 'spawned', rid: message.rid, terminal: describe(held), from }, held, from);
        return;
      }
      case 'attach': {
        const held = this.terminals.get(message.id);
        if (!held) {
          client.send({ t: 'failed', rid: message.rid, code: 'terminal_not_found', message: `this holder has no terminal ${message.id}` });
          return;
        }
        const buffer = held.terminal.buffer;
        const from = Math.min(Math.max(message.from ?? buffer.start, buffer.start), buffer.end);
        client.follow({ t: 'attached', rid: message.rid, terminal: describe(held), from }, held, from);
        return;
      }
      case 'resize': {
        const held = this.terminals.get(message.id);
        if (held && held.terminal.state !== 'ENDED') held.terminal.resize(message.cols, message.rows);
        return;
      }
      case 'park': {
        const held = this.terminals.get(message.id);
        if (held) {
          if (message.parked) held.terminal.pause();
          else held.terminal.unpause();
        }
        return;
      }
      case 'release': {
        const held = this.terminals.get(message.id);
        if (held?.exit) {
          client.unfollow(held.id);
          this.terminals.delete(held.id);
          this.checkIdle();
        }
        return;
      }
      case 'retire':
        this.retired = true;
        this.checkIdle();
        return;
      default:
        return;
    }
  }

  private spawn(request: HolderSpawnRequest): Held {
    const process_ = pty.spawn(request.command, request.args, {
      name: request.name,
      cols: request.cols,
      rows: request.rows,
      cwd: request.cwd,
      env: request.env,
      encoding: null,
    });
    const id = this.nextId++;
    const held: Held = {
      id,
      pty: process_,
      blockedBy: new Set(),
      meta: request.meta,
      keepaliveExpired: false,
      terminal: new Terminal({
        taskId: request.meta.taskId,
        executionId: request.meta.executionId,
        pty: process_,
        scrollbackBytes: request.scrollbackBytes,
        startOffset: request.startOffset,
        watchTurns: false,
        keepaliveMs: request.keepaliveMs,
        onKeepaliveExpired: () => {
          held.keepaliveExpired = true;
          held.terminal.stop('keepalive', { interruptMs: request.interruptMs, graceMs: request.stopGraceMs }).catch(() => undefined);
        },
      }),
    };
    if (request.prelude) held.terminal.buffer.append(Buffer.from(request.prelude, 'utf8'));
    this.terminals.set(id, held);
    void held.terminal.exited.then((exit) => {
      held.exit = { exitCode: exit.exitCode, signal: exit.signal, reason: held.keepaliveExpired ? 'keepalive' : 'exited' };
      // A service that follows the terminal records the end itself (and until it releases it, the
      // holder still lists it for the next service); the log is for ends no service saw.
      if (![...this.clients].some((client) => client.following.has(id))) this.logExit(held);
      // Each follower gets the output before the end first, then the end.
      for (const client of this.clients) client.pump();
      this.checkIdle();
    });
    return held;
  }

  /** An end no service saw goes to the exit log: a service that was away reads the real exit code there. */
  private logExit(held: Held): void {
    const record: HolderExitRecord = {
      executionId: held.meta.executionId,
      taskId: held.meta.taskId,
      pid: held.terminal.pid,
      exit: held.exit!,
      at: new Date().toISOString(),
    };
    try {
      appendFileSync(this.paths.exits, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    } catch {
      // SVC_HOME is gone: the watch ends the holder
    }
  }

  private live(): number {
    return [...this.terminals.values()].filter((held) => !held.exit).length;
  }

  /**
   * Nothing loose: a retired holder (an older build) exits when its last terminal ends; any holder
   * exits after `idleMs` with no live terminal and no service attached.
   */
  private checkIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.live() > 0) return;
    if (this.retired) {
      this.shutdown('retired and empty', false);
      return;
    }
    if (this.clients.size > 0) return;
    this.idleTimer = setTimeout(() => this.shutdown('idle', false), this.options.idleMs);
  }

  shutdown(_why: string, killTerminals: boolean): void {
    if (this.exiting) return;
    this.exiting = true;
    if (killTerminals) {
      for (const held of this.terminals.values()) {
        try {
          process.kill(-held.terminal.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
    clearInterval(this.watchTimer);
    // Only our own files: a newer holder of the same build may have replaced them.
    const file = this.paths.description(this.options.build);
    try {
      const description = JSON.parse(readFileSync(file, 'utf8')) as HolderDescription;
      if (description.pid === process.pid) {
        rmSync(file, { force: true });
        rmSync(description.socket, { force: true });
      }
    } catch {
      // already removed
    }
    this.server?.close();
    for (const client of this.clients) client.socket.destroy();
    setTimeout(() => process.exit(0), 50).unref();
  }
}

function describe(held: Held): HeldTerminal {
  return {
    id: held.id,
    pid: held.terminal.pid,
    meta: held.meta,
    state: held.terminal.state,
    start: held.terminal.buffer.start,
    end: held.terminal.buffer.end,
    ...(held.exit ? { exit: held.exit } : {}),
  };
}

/** The shared secret: a 0600 file of this user; anything looser is refused. */
export function readSecret(file: string): string {
  const stat = statSync(file);
  if ((stat.mode & 0o077) !== 0 || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) {
    throw new Error(`${file} must be a file of this user with mode 0600`);
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds no secret`);
  return secret;
}
