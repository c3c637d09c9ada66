// The service's side of the terminal holder: a connection, and each held terminal as a PTY.
import { connect, type Socket } from 'node:net';
import { SvcError } from '@svc-org/ai-sdk';
import type { TerminalPty } from '../terminal.js';
import {
  FrameDecoder,
  HOLDER_PROTOCOLS,
  commonProtocol,
  dataFrame,
  holderProof,
  jsonFrame,
  type HeldTerminal,
  type HeldTerminalExit,
  type HolderMessage,
  type HolderSpawnRequest,
} from './holder-protocol.js';

const CONNECT_TIMEOUT_MS = 5000;
// What one read of the holder's socket takes at most: a few of its writes while output streams.
const READ_BUFFER_BYTES = 256 * 1024;

export interface HolderConnectionInfo {
  socket: string;
  build: string;
  pid: number;
  protocol: number;
}

type Pending = {
  resolve: (message: HolderMessage) => void;
  reject: (error: Error) => void;
  /** Runs as the answer is read, before the frames behind it: output of a terminal it starts following goes to its PTY. */
  answered?: (message: HolderMessage) => void;
};

/**
 * One authenticated connection to a terminal holder. `held` lists the terminals it had when we
 * connected (live ones and ends no service has heard of yet).
 */
export class HolderConnection {
  private readonly ptys = new Map<number, HolderPty>();
  private readonly pending = new Map<number, Pending>();
  private readonly closeListeners = new Set<() => void>();
  private nextRid = 1;
  private closed = false;

  private constructor(
    private readonly socket: Socket,
    readonly info: HolderConnectionInfo,
    readonly held: HeldTerminal[],
  ) {}

  /**
   * Connects and answers the holder's challenge with the secret; refuses a holder that speaks no
   * common protocol. `protocols`: the versions this side speaks (an older service's, in tests).
   */
  static connect(socketPath: string, secret: string, protocols: readonly number[] = HOLDER_PROTOCOLS): Promise<HolderConnection> {
    return new Promise((resolve, reject) => {
      // One read buffer for the connection's life: output is copied into the terminals' rings as it
      // is read, so no buffer is allocated per read.
      const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
      const socket = connect({ path: socketPath, onread: { buffer: readBuffer, callback: (length) => received(readBuffer.subarray(0, length)) } });
      const decoder = new FrameDecoder({ streamData: true });
      let connection: HolderConnection | undefined;
      let build = '';
      let protocol = 0;
      const fail = (code: string, message: string): false => {
        clearTimeout(timer);
        socket.destroy();
        reject(new SvcError({ code, message: `${message} (\`svc doctor\` lists the terminal holders)` }));
        return false;
      };
      const timer = setTimeout(() => fail('holder_unreachable', `the terminal holder at ${socketPath} did not answer`), CONNECT_TIMEOUT_MS);
      socket.on('error', (error) => {
        if (!connection) fail('holder_unreachable', `could not reach the terminal holder at ${socketPath}: ${(error as NodeJS.ErrnoException).code ?? error.message}`);
      });
      socket.on('close', () => {
        if (!connection) fail('holder_unreachable', `the terminal holder at ${socketPath} closed the connection`);
        else connection.lost();
      });
      /** Handles one read; true: go on reading. */
      const received = (chunk: Buffer): boolean => {
        let frames;
        try {
          frames = decoder.push(chunk);
        } catch {
          socket.destroy();
          return false;
        }
        for (const frame of frames) {
          if (connection) {
            connection.receive(frame.kind === 'json' ? { message: frame.message } : { id: frame.id, data: frame.data });
            continue;
          }
          if (frame.kind !== 'json') return fail('holder_refused', 'the terminal holder sent output before the handshake');
          const message = frame.message;
          if (message.t === 'hello' && 'nonce' in message) {
            const chosen = commonProtocol(message.protocols, protocols);
            if (chosen === undefined) {
              return fail('holder_refused', `the terminal holder speaks protocols ${message.protocols.join(', ')}; this svc speaks ${protocols.join(', ')}`);
            }
            build = message.build;
            protocol = chosen;
            socket.write(jsonFrame({ t: 'hello', protocol: chosen, build, proof: holderProof(secret, message.nonce) }));
          } else if (message.t === 'welcome') {
            clearTimeout(timer);
            connection = new HolderConnection(socket, { socket: socketPath, build, pid: message.pid, protocol }, message.terminals);
            resolve(connection);
          } else if (message.t === 'refused') {
            return fail(message.code, `the terminal holder refused the connection: ${message.message}`);
          } else {
            return fail('holder_refused', `unexpected "${message.t}" from the terminal holder`);
          }
        }
        return true;
      };
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The number of live terminals this service follows on this holder. */
  get following(): number {
    return [...this.ptys.values()].filter((held) => !held.ended).length;
  }

  /**
   * Starts a terminal and follows it from its first byte: one request where the holder speaks
   * protocol 2, a spawn and then an attach with one that speaks only 1.
   */
  async spawn(request: HolderSpawnRequest): Promise<HolderPty> {
    if (this.info.protocol < 2) {
      const answer = await this.request({ t: 'spawn', rid: 0, request });
      if (answer.t !== 'spawned') throw this.failure(answer);
      return this.attach(answer.terminal.id, request.startOffset);
    }
    let pty: HolderPty | undefined;
    const answer = await this.request({ t: 'spawn', rid: 0, request, follow: true }, (spawned) => {
      if (spawned.t === 'spawned' && spawned.from !== undefined) pty = this.follow(spawned.terminal, spawned.from);
    });
    if (!pty) throw this.failure(answer);
    return pty;
  }

  /** Follows a held terminal: its scrollback from `from` (default: all it keeps), then its live output and end. */
  async attach(id: number, from?: number): Promise<HolderPty> {
    let pty: HolderPty | undefined;
    const answer = await this.request({ t: 'attach', rid: 0, id, ...(from === undefined ? {} : { from }) }, (attached) => {
      if (attached.t === 'attached') pty = this.follow(attached.terminal, attached.from);
    });
    if (!pty) throw this.failure(answer);
    return pty;
  }

  /** A terminal the holder now sends this connection, from `from`. */
  private follow(terminal: HeldTerminal, from: number): HolderPty {
    const pty = new HolderPty(this, terminal.id);
    pty.describe(terminal, from);
    this.ptys.set(terminal.id, pty);
    return pty;
  }

  /** An older build's holder: it takes no new terminals and exits when its last one ends. */
  retire(): void {
    this.send({ t: 'retire' });
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Detaches from the holder; its terminals keep running (and no end is reported for them here). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const gone = new SvcError({ code: 'holder_unreachable', message: 'the service detached from the terminal holder' });
    for (const pending of this.pending.values()) pending.reject(gone);
    this.pending.clear();
    this.socket.end();
  }

  send(message: HolderMessage): void {
    if (!this.closed) this.socket.write(jsonFrame(message));
  }

  sendData(id: number, data: string): void {
    if (this.closed) throw new SvcError({ code: 'holder_unreachable', message: 'the terminal holder of this terminal is gone; resume the task to start its CLI again' });
    this.socket.write(dataFrame(id, data));
  }

  forget(id: number): void {
    this.ptys.delete(id);
    this.send({ t: 'release', id });
  }

  private request(message: Extract<HolderMessage, { t: 'spawn' | 'attach' }>, answered?: (message: HolderMessage) => void): Promise<HolderMessage> {
    if (this.closed) return Promise.reject(new SvcError({ code: 'holder_unreachable', message: 'the terminal holder is gone (`svc doctor` lists the terminal holders)' }));
    const rid = this.nextRid++;
    return new Promise((resolve, reject) => {
      this.pending.set(rid, { resolve, reject, ...(answered ? { answered } : {}) });
      this.send({ ...message, rid });
    });
  }

  private failure(answer: HolderMessage): SvcError {
    const { code, message } = answer.t === 'failed' ? answer : { code: 'holder_refused', message: `unexpected "${answer.t}" from the terminal holder` };
    return new SvcError({ code, message });
  }

  private receive(frame: { message: HolderMessage } | { id: number; data: Buffer }): void {
    if ('data' in frame) {
      this.ptys.get(frame.id)?.emitData(frame.data);
      return;
    }
    const message = frame.message;
    if ('rid' in message && message.t !== 'spawn' && message.t !== 'attach') {
      const pending = this.pending.get(message.rid);
      this.pending.delete(message.rid);
      pending?.answered?.(message);
      pending?.resolve(message);
      return;
    }
    if (message.t === 'exit') this.ptys.get(message.id)?.emitExit(message.exit, false);
  }

  private lost(): void {
    if (this.closed) return;
    this.closed = true;
    const gone = new SvcError({ code: 'holder_unreachable', message: 'the terminal holder closed the connection (`svc doctor` lists the terminal holders)' });
    for (const pending of this.pending.values()) pending.reject(gone);
    this.pending.clear();
    // The PTYs died with their holder (their sessions got a hang-up).
    for (const terminal of this.ptys.values()) terminal.emitExit({ exitCode: 1, signal: 1, reason: 'exited' }, true);
    for (const listener of this.closeListeners) listener();
  }
}

/** A terminal held by the holder, seen from the service: what `Terminal` needs of a PTY. */
export class HolderPty implements TerminalPty {
  pid = 0;
  /** The offset of the first byte this side receives (the holder's scrollback replay starts there). */
  from = 0;
  info: HeldTerminal | undefined;
  ended = false;
  /** The end came from losing the holder, not from the process. */
  lostHolder = false;
  private queued: Buffer[] = [];
  private queuedExit: HeldTerminalExit | undefined;
  private dataListener: ((data: Buffer) => void) | undefined;
  private exitListener: ((exit: { exitCode: number; signal?: number }) => void) | undefined;
  endReason: HeldTerminalExit['reason'] = 'exited';

  constructor(private readonly connection: HolderConnection, readonly id: number) {}

  get holder(): HolderConnectionInfo {
    return this.connection.info;
  }

  describe(info: HeldTerminal, from: number): void {
    this.info = info;
    this.pid = info.pid;
    this.from = from;
  }

  /** Output as it is read; each chunk is valid during the call only (the read buffer is reused): copy what you keep. */
  onData(listener: (data: Buffer) => void): { dispose(): void } {
    this.dataListener = listener;
    const queued = this.queued;
    this.queued = [];
    for (const chunk of queued) listener(chunk);
    return { dispose: () => (this.dataListener = undefined) };
  }

  onExit(listener: (exit: { exitCode: number; signal?: number }) => void): { dispose(): void } {
    this.exitListener = listener;
    if (this.queuedExit) {
      const exit = this.queuedExit;
      queueMicrotask(() => listener({ exitCode: exit.exitCode, ...(exit.signal !== null ? { signal: exit.signal } : {}) }));
    }
    return { dispose: () => (this.exitListener = undefined) };
  }

  write(data: string): void {
    if (this.ended) return;
    this.connection.sendData(this.id, data);
  }

  resize(cols: number, rows: number): void {
    this.connection.send({ t: 'resize', id: this.id, cols, rows });
  }

  /** Tells the holder the execution is parked (its own keepalive is suspended meanwhile) or not. */
  park(parked: boolean): void {
    this.connection.send({ t: 'park', id: this.id, parked });
  }

  /** The end is recorded: the holder may forget this terminal. */
  release(): void {
    this.connection.forget(this.id);
  }

  /** `data` is a view of the connection's read buffer: the listener copies what it keeps. */
  emitData(data: Buffer): void {
    if (this.dataListener) this.dataListener(data);
    else this.queued.push(Buffer.from(data));
  }

  emitExit(exit: HeldTerminalExit, lostHolder: boolean): void {
    if (this.ended) return;
    this.ended = true;
    this.lostHolder = lostHolder;
    this.endReason = exit.reason;
    if (this.exitListener) this.exitListener({ exitCode: exit.exitCode, ...(exit.signal !== null ? { signal: exit.signal } : {}) });
    else this.queuedExit = exit;
  }
}
