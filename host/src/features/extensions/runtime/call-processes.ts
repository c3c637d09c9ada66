// The processes one adapter call started through the Host Context: their spawn with the filtered
// environment and the call's deadline, their output relayed to the worker, and stdout flow control.
import type { HostContextShape, HostMessage } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import type { Logger } from '../../../platform/logging/index.js';
import { childEnv, filterProviderEnvPatch } from '../../../platform/processes/child-env.js';
import { ProcessSupervisor, type KillReason, type SupervisedProcess } from '../../../platform/processes/process-supervisor.js';

export interface CallProcessesOptions {
  logger: Logger;
  hostEnv: NodeJS.ProcessEnv;
  connectionEnv?: Record<string, string>;
  /** The call's own deadline caps any process timeout a plugin asks for. */
  maxProcessTimeoutMs?: number;
  onSpawn?: (pid: number, command: string) => void;
  /** Sends a message to the worker running the call. */
  send: (message: HostMessage) => void;
}

export type ProcessMethods = Pick<HostContextShape, '$process.spawn' | '$process.write' | '$process.end' | '$process.kill' | '$process.ack'>;

const STDOUT_HIGH_WATER_CHARS = 1024 * 1024;

interface CallProcess {
  proc: SupervisedProcess;
  /** Stdout characters sent to the worker that it has not acknowledged yet. */
  unacked: number;
  paused: boolean;
}

export class CallProcesses {
  private readonly supervisor = new ProcessSupervisor();
  private readonly processes = new Map<number, CallProcess>();

  constructor(private readonly options: CallProcessesOptions) {}

  /** The `$process.*` methods of the Host Context. */
  methods(): ProcessMethods {
    return {
      '$process.spawn': (spec, options) => this.spawn(spec, options),
      '$process.write': (handle, data) => this.get(handle).proc.write(data),
      '$process.end': (handle) => this.get(handle).proc.end(),
      '$process.kill': (handle, signal) => this.processes.get(handle)?.proc.signal(signal),
      '$process.ack': (handle, chars) => this.acknowledge(handle, chars),
    };
  }

  async stopAll(reason: KillReason): Promise<void> {
    await this.supervisor.stopAll(reason);
  }

  private spawn(...[spec, options]: Parameters<ProcessMethods['$process.spawn']>): Promise<{ handle: number; pid: number }> {
    const { logger } = this.options;
    const cap = this.options.maxProcessTimeoutMs;
    const timeoutMs = options.timeoutMs && cap ? Math.min(options.timeoutMs, cap) : (options.timeoutMs ?? cap);
    const envPatch = filterProviderEnvPatch(spec.envPatch);
    if (envPatch.dropped.length > 0) logger.warn('provider environment variables left out', { command: spec.command, dropped: envPatch.dropped });
    const { send } = this.options;
    const supervised = this.supervisor.spawn(
      { command: spec.command, args: spec.args, cwd: spec.cwd, stdin: spec.stdin, timeoutMs, env: childEnv(this.options.hostEnv, this.options.connectionEnv, envPatch.env) },
      {
        onData: (stream, text) => {
          send({ t: 'out', h: supervised.handle, k: stream, d: text });
          if (stream === 'stdout') this.countUnacknowledged(supervised.handle, text.length);
        },
        onEnd: (stream) => send({ t: 'eof', h: supervised.handle, k: stream }),
        onExit: (exit) => {
          send({ t: 'exit', h: supervised.handle, x: exit });
          this.processes.delete(supervised.handle);
        },
      },
    );
    this.processes.set(supervised.handle, { proc: supervised, unacked: 0, paused: false });
    this.options.onSpawn?.(supervised.pid, spec.command);
    logger.debug('process started', { pid: supervised.pid, command: spec.command });
    return supervised.started.then(() => ({ handle: supervised.handle, pid: supervised.pid }));
  }

  private get(handle: number): CallProcess {
    const entry = this.processes.get(handle);
    if (!entry) throw new SvcError({ code: 'process_not_found', message: `no process with handle ${handle} in this call` });
    return entry;
  }

  /** Stdout the worker has not read yet: past the high-water mark the process is paused. */
  private countUnacknowledged(handle: number, chars: number): void {
    const entry = this.processes.get(handle);
    if (!entry) return;
    entry.unacked += chars;
    if (!entry.paused && entry.unacked > STDOUT_HIGH_WATER_CHARS) {
      entry.paused = true;
      entry.proc.pauseStdout();
    }
  }

  /** The worker read `chars` of a process's stdout: below half the mark it flows again. */
  private acknowledge(handle: number, chars: number): void {
    const entry = this.processes.get(handle);
    if (!entry) return;
    entry.unacked = Math.max(0, entry.unacked - chars);
    if (entry.paused && entry.unacked <= STDOUT_HIGH_WATER_CHARS / 2) {
      entry.paused = false;
      entry.proc.resumeStdout();
    }
  }
}
