// A hardened provider's "pool": one child process per extension revision, started on the first
// call, serving several calls at once, stopped when idle. SIGKILL of its process group ends every
// call in it at once, whatever the provider is stuck in.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { MessagePort } from 'node:worker_threads';
import type { HardenedLaunch } from './hardened-launch.js';
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
  pid: number;
  exited: Promise<void>;
  dead: boolean;
  calls: Map<number, RunningCall>;
  stderrTail: string;
}

const STDERR_TAIL_CHARS = 4096;

export class ProcessPool extends EventEmitter implements ProviderPool {
  private child: LiveChild | undefined;
  private nextCall = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private destroyed = false;

  constructor(private readonly launch: HardenedLaunch, private readonly idleTimeoutMs: number) {
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
    const proc = spawn(this.launch.command, this.launch.args, {
      env: this.launch.env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      // Its own process group and session: the host's terminal signals do not reach it, and one
      // kill of the group ends the wrapper and the provider together.
      detached: true,
    });
    if (proc.pid === undefined) {
      // spawn failed synchronously (no such command): the error event follows.
      proc.once('error', (error) => this.emit('error', error));
    }
    let markExited!: () => void;
    const child: LiveChild = {
      proc,
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
    proc.on('message', (message: ProcessToHost) => this.receive(child, message));
    proc.on('error', (error) => this.ended(child, `the provider process could not run: ${error.message}`, markExited));
    proc.on('exit', (code, signal) => this.ended(child, exitReason(code, signal, child.stderrTail), markExited));
    this.child = child;
    return child;
  }

  private receive(child: LiveChild, message: ProcessToHost): void {
    const call = child.calls.get(message.c);
    if (!call) return;
    if (message.k === 'm') {
      call.port.postMessage(message.m);
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

  private ended(child: LiveChild, reason: string, markExited: () => void): void {
    if (child.dead) return;
    child.dead = true;
    if (this.child === child) this.child = undefined;
    const error = new Error(reason);
    for (const call of child.calls.values()) if (!call.ended) call.reject(error);
    child.calls.clear();
    markExited();
  }

  private send(child: LiveChild, message: HostToProcess): void {
    if (child.dead || !child.proc.connected) return;
    try {
      child.proc.send(message);
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

function exitReason(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  if (/heap out of memory|allocation failed|out of memory/i.test(stderrTail)) return `the provider process ran out of memory (${how})`;
  // The uncaught error's own line, when Node printed one: what a person needs to find the cause.
  const thrown = /^(?:Uncaught )?\w*Error: .*$/m.exec(stderrTail)?.[0];
  return `the provider process ${how}${thrown ? `: ${thrown.slice(0, 300)}` : ''}`;
}
