// A hardened provider's "pool": one child process per extension revision, started on the first
// call, serving several calls at once, stopped when idle. SIGKILL of its process group ends every
// call in it at once, whatever the provider is stuck in.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough, type Duplex } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import { SvcError } from '@svc-org/ai-sdk';
import type { HardenedLaunch } from './hardened-launch.js';
import { checkMessageBounds } from './message-bounds.js';
import { encodeFrame, FrameReader } from './message-frames.js';
import type { HostToProcess, ProcessToHost } from './process-messages.js';
import type { ProviderPool } from './provider-pool.js';
import type { WorkerTask } from './rpc-messages.js';

interface RunningCall {
  port: MessagePort;
  resolve: () => void;
  reject: (error: Error) => void;
  /** The task runner returned; the port stays routed until the host closes it (messages may trail). */
  ended: boolean;
}

interface LiveChild {
  proc: ChildProcess;
  /** The framed message channel (the child's fd 3); Node's own IPC channel is not used: its parse throws past any handler. */
  channel: Duplex;
  pid: number;
  exited: Promise<void>;
  dead: boolean;
  calls: Map<number, RunningCall>;
  stderrTail: string;
  /** Why the host killed it (a message it broke the channel with): what its calls fail with. */
  fault?: SvcError;
}

/** What the host accepts from a provider process, per message (see message-bounds.ts). */
export interface MessageLimits {
  maxMessageBytes: number;
  maxMessageDepth: number;
}

const STDERR_TAIL_CHARS = 4096;

export class ProcessPool extends EventEmitter implements ProviderPool {
  private child: LiveChild | undefined;
  private nextCall = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private destroyed = false;

  /** `launch` is asked for the command line at each start of the process (it may join a root set up once). */
  constructor(private readonly launch: () => HardenedLaunch, private readonly idleTimeoutMs: number, private readonly messageLimits: MessageLimits) {
    super();
  }

  get threads(): ReadonlyArray<{ threadId: number; terminate(): Promise<unknown> }> {
    const child = this.child;
    if (!child || child.dead) return [];
    return [{ threadId: child.pid, terminate: () => this.kill(child) }];
  }

  run(task: WorkerTask): Promise<void> {
    if (this.destroyed) return Promise.reject(new Error('the provider process pool is closed'));
    const child = this.ensureChild();
    clearTimeout(this.idleTimer);
    const c = this.nextCall++;
    const { port, ...data } = task;
    return new Promise<void>((resolve, reject) => {
      child.calls.set(c, { port, resolve, reject, ended: false });
      port.on('message', (m) => this.send(child, { k: 'm', c, m }));
      port.once('close', () => {
        child.calls.delete(c);
        this.send(child, { k: 'close', c });
      });
      this.send(child, { k: 'run', c, tid: child.pid, task: data });
    });
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
    clearTimeout(this.idleTimer);
    if (this.child) await this.kill(this.child);
  }

  private ensureChild(): LiveChild {
    if (this.child && !this.child.dead) return this.child;
    const launch = this.launch();
    const proc = spawn(launch.command, launch.args, {
      env: launch.env,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      // Its own process group and session: the host's terminal signals do not reach it, and one
      // kill of the group ends the wrapper and the provider together.
      detached: true,
    });
    if (proc.pid === undefined) {
      // spawn failed synchronously (no such command): the error event follows.
      proc.once('error', (error) => this.emit('error', error));
    }
    let markExited!: () => void;
    // Absent only when the spawn failed outright (the error event follows): an inert stand-in then.
    const channel = (proc.stdio[3] as Duplex | null) ?? new PassThrough();
    const child: LiveChild = {
      proc,
      channel,
      pid: proc.pid ?? -1,
      exited: new Promise((resolve) => (markExited = resolve)),
      dead: false,
      calls: new Map(),
      stderrTail: '',
    };
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (text: string) => {
      child.stderrTail = (child.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    const reader = new FrameReader(this.messageLimits.maxMessageBytes, this.messageLimits.maxMessageDepth);
    channel.on('data', (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) {
        if (child.fault) return;
        if (!frame.ok) this.refuse(child, frame.fault.code, frame.fault.message);
        else this.receive(child, frame.value);
      }
    });
    // The provider closing or breaking its end is its exit's business (the exit handler ends the calls).
    channel.on('error', () => undefined);
    proc.on('error', (error) => this.ended(child, `the provider process could not run: ${error.message}`, markExited));
    proc.on('exit', (code, signal) => this.ended(child, exitReason(code, signal, child.stderrTail), markExited));
    this.child = child;
    return child;
  }

  /** Every byte from the provider is hostile: a message is bounded and shaped before it is relayed. */
  private receive(child: LiveChild, value: unknown): void {
    const bounds = checkMessageBounds(value, this.messageLimits.maxMessageDepth, this.messageLimits.maxMessageBytes);
    if (bounds) return this.refuse(child, bounds.code, bounds.message);
    if (!isProcessToHost(value)) return this.refuse(child, 'ipc_message_malformed', 'the provider sent a message that is not part of the protocol');
    const message = value;
    const call = child.calls.get(message.c);
    if (!call) return;
    if (message.k === 'm') {
      try {
        call.port.postMessage(message.m);
      } catch (error) {
        this.refuse(child, 'ipc_message_malformed', `the provider sent a message the host cannot relay (${(error as Error).message})`);
      }
      return;
    }
    // The runner's `end` can overtake its last port messages (they cross two hops): keep routing.
    call.ended = true;
    call.resolve();
    if ([...child.calls.values()].every((other) => other.ended) && this.child === child) {
      this.idleTimer = setTimeout(() => void this.kill(child), this.idleTimeoutMs);
      this.idleTimer.unref();
    }
  }

  /** The provider broke the channel: it is killed, and its calls fail with the coded reason (a crash for the quarantine). */
  private refuse(child: LiveChild, code: string, message: string): void {
    if (child.fault || child.dead) return;
    child.fault = new SvcError({ code, message: `${message}; the provider process was stopped` });
    child.channel.destroy();
    void this.kill(child);
  }

  private ended(child: LiveChild, reason: string, markExited: () => void): void {
    if (child.dead) return;
    child.dead = true;
    if (this.child === child) this.child = undefined;
    const error = child.fault ?? new Error(reason);
    for (const call of child.calls.values()) if (!call.ended) call.reject(error);
    child.calls.clear();
    markExited();
  }

  private send(child: LiveChild, message: HostToProcess): void {
    if (child.dead || child.fault || child.channel.destroyed) return;
    try {
      child.channel.write(encodeFrame(message));
    } catch {
      // the channel closed under us: the exit handler ends the calls
    }
  }

  private async kill(child: LiveChild): Promise<void> {
    if (!child.dead) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.proc.kill('SIGKILL');
      }
    }
    await child.exited;
  }
}

function isProcessToHost(value: unknown): value is ProcessToHost {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { k?: unknown; c?: unknown; m?: unknown };
  if (!Number.isSafeInteger(message.c)) return false;
  if (message.k === 'end') return true;
  return message.k === 'm' && typeof message.m === 'object' && message.m !== null;
}

function exitReason(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  if (/heap out of memory|allocation failed|out of memory/i.test(stderrTail)) return `the provider process ran out of memory (${how})`;
  // The uncaught error's own line, when Node printed one: what a person needs to find the cause.
  const thrown = /^(?:Uncaught )?\w*Error: .*$/m.exec(stderrTail)?.[0];
  return `the provider process ${how}${thrown ? `: ${thrown.slice(0, 300)}` : ''}`;
}
