import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { ProcessExit } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import { killProcessTree } from './kill-process-tree.js';

export interface SupervisedSpec {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs?: number;
}

export interface SupervisedHandlers {
  onData(stream: 'stdout' | 'stderr', text: string): void;
  onEnd(stream: 'stdout' | 'stderr'): void;
  onExit(exit: ProcessExit): void;
}

export type KillReason = 'cancelled' | 'timeout' | 'unloaded';

export interface SupervisedProcess {
  readonly handle: number;
  readonly pid: number;
  write(data: string): Promise<void>;
  end(): void;
  signal(signal: NodeJS.Signals): void;
  pauseStdout(): void;
  resumeStdout(): void;
  /** Resolves once the OS started the process; rejects with `spawn_failed` (e.g. not found). */
  readonly started: Promise<void>;
  readonly exited: Promise<ProcessExit>;
}

export const KILL_GRACE_MS = 2000;

/**
 * Starts child processes for one owner (a call, a terminal) and guarantees they end with it:
 * argument arrays only, each child in its own process group, whole trees killed on stop.
 */
export class ProcessSupervisor {
  private nextHandle = 1;
  private readonly live = new Map<number, { child: ChildProcessWithoutNullStreams; killedBy?: KillReason; done: Promise<ProcessExit> }>();

  spawn(spec: SupervisedSpec, handlers: SupervisedHandlers): SupervisedProcess {
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        shell: false,
        stdio: 'pipe',
        windowsHide: true,
      });
    } catch (error) {
      throw new SvcError({ code: 'spawn_failed', message: `could not start ${spec.command}: ${(error as Error).message}` });
    }
    const handle = this.nextHandle++;
    const entry = { child, killedBy: undefined as KillReason | undefined, done: undefined as unknown as Promise<ProcessExit> };
    let timer: NodeJS.Timeout | undefined;
    const started = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new SvcError({ code: 'spawn_failed', message: `could not start ${spec.command}: ${error.message}` })),
      );
    });
    started.catch(() => undefined);
    entry.done = new Promise<ProcessExit>((resolve, reject) => {
      started.catch((error) => {
        this.live.delete(handle);
        reject(error);
      });
      child.once('close', (code, signal) => {
        if (timer) clearTimeout(timer);
        this.live.delete(handle);
        const exit: ProcessExit = { exitCode: code, signal: signal ?? null, ...(entry.killedBy ? { killedBy: entry.killedBy } : {}) };
        handlers.onExit(exit);
        resolve(exit);
      });
    });
    entry.done.catch(() => undefined);
    this.live.set(handle, entry);

    for (const stream of ['stdout', 'stderr'] as const) {
      const decoder = new StringDecoder('utf8');
      child[stream].on('data', (chunk: Buffer) => {
        const text = decoder.write(chunk);
        if (text) handlers.onData(stream, text);
      });
      child[stream].on('end', () => {
        const rest = decoder.end();
        if (rest) handlers.onData(stream, rest);
        handlers.onEnd(stream);
      });
    }
    child.stdin.on('error', () => undefined); // EPIPE when the child exits first
    if (spec.stdin !== undefined) child.stdin.end(spec.stdin);
    if (spec.timeoutMs) timer = setTimeout(() => this.stop(handle, 'timeout'), spec.timeoutMs);

    return {
      handle,
      pid: child.pid ?? -1,
      write: (data) =>
        new Promise<void>((resolve, reject) => {
          if (child.stdin.destroyed || child.stdin.writableEnded) {
            reject(new SvcError({ code: 'process_stdin_closed', message: 'the process stdin is closed' }));
            return;
          }
          child.stdin.write(data, (error) => (error ? reject(error) : resolve()));
        }),
      end: () => child.stdin.end(),
      signal: (signal) => {
        if (child.pid) killProcessTree(child.pid, signal);
      },
      pauseStdout: () => child.stdout.pause(),
      resumeStdout: () => child.stdout.resume(),
      started,
      exited: entry.done,
    };
  }

  get size(): number {
    return this.live.size;
  }

  pids(): number[] {
    return [...this.live.values()].map((entry) => entry.child.pid ?? -1).filter((pid) => pid > 0);
  }

  /** Polite stop, then forced: SIGTERM to the tree, SIGKILL after the grace period. */
  async stop(handle: number, reason: KillReason, graceMs = KILL_GRACE_MS): Promise<void> {
    const entry = this.live.get(handle);
    if (!entry?.child.pid) return;
    entry.killedBy ??= reason;
    const pid = entry.child.pid;
    killProcessTree(pid, 'SIGTERM');
    const forced = setTimeout(() => killProcessTree(pid, 'SIGKILL'), graceMs);
    await entry.done.catch(() => undefined);
    clearTimeout(forced);
    // Grandchildren that ignored SIGTERM outlive their parent: end them too.
    killProcessTree(pid, 'SIGKILL');
  }

  async stopAll(reason: KillReason, graceMs = KILL_GRACE_MS): Promise<void> {
    await Promise.all([...this.live.keys()].map((handle) => this.stop(handle, reason, graceMs)));
  }
}
