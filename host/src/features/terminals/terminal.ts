import type { IPty } from 'node-pty';
import { SvcError } from '@svc-org/ai-sdk';
import type { EndReason } from '../domain/index.js';
import { descendantsOf, processStartTime } from '../../platform/processes/index.js';
import { KeepaliveTimer, SYSTEM_CLOCK, type TimerClock } from './keepalive-timer.js';
import { ScrollbackBuffer } from './scrollback-buffer.js';
import { TurnTracker, type TurnSignals } from './turn-tracker.js';

export type TerminalState = 'RUNNING' | 'PAUSED' | 'ENDED';

export interface TerminalExit {
  exitCode: number;
  signal: number | null;
  reason: EndReason;
}

/**
 * What a Terminal needs of its PTY: a node-pty `IPty` in the same process, or a terminal held by the
 * terminal holder (holder/holder-client.ts).
 */
export interface TerminalPty {
  readonly pid: number;
  onData(listener: (data: string | Buffer) => void): unknown;
  onExit(listener: (exit: { exitCode: number; signal?: number }) => void): unknown;
  write(data: string): void;
  resize(cols: number, rows: number): void;
}

export interface TerminalOptions {
  taskId: number;
  executionId: number;
  pty: TerminalPty | IPty;
  scrollbackBytes: number;
  /** Where this terminal's offsets begin: the previous terminal's end, so a task's cursor keeps counting. */
  startOffset?: number;
  keepaliveMs: number;
  onKeepaliveExpired: () => void;
  clock?: TimerClock;
  /** Which turn hooks the CLI reports for this run (default: none). */
  turnSignals?: TurnSignals;
  /** Whether the output is watched for the CLI's prompt (the terminal holder leaves that to the service). */
  watchTurns?: boolean;
}

export interface StopTimings {
  interruptMs: number;
  graceMs: number;
}

const CTRL_C = '\x03';

/**
 * One live PTY session: its scrollback, who is attached, the disconnect keepalive and a stop that
 * behaves like a Stop button (Ctrl-C, then SIGTERM to the tree, then SIGKILL to the tree).
 */
export class Terminal {
  readonly taskId: number;
  readonly executionId: number;
  readonly pid: number;
  readonly buffer: ScrollbackBuffer;
  readonly exited: Promise<TerminalExit>;
  /** Prompt readiness and turns, for typing a message at the right moment. */
  readonly turns: TurnTracker;
  /** A message is being typed by `submitMessage`; a second one waits its turn. */
  submitting = false;
  /** `submitMessage` has typed into this run before (the first time waits longer for a still screen). */
  messageTyped = false;
  private currentState: TerminalState = 'RUNNING';
  private attachments = 0;
  private stopReason: EndReason | undefined;
  private readonly listeners = new Set<(output?: Buffer) => void>();
  private readonly keepalive: KeepaliveTimer;
  private readonly pty: TerminalPty;

  constructor(options: TerminalOptions) {
    this.taskId = options.taskId;
    this.executionId = options.executionId;
    this.pty = options.pty;
    this.pid = options.pty.pid;
    this.buffer = new ScrollbackBuffer(options.scrollbackBytes, options.startOffset ?? 0);
    this.turns = new TurnTracker(options.turnSignals ?? { promptSubmit: false, stop: false });
    this.keepalive = new KeepaliveTimer(options.keepaliveMs, options.onKeepaliveExpired, options.clock ?? SYSTEM_CLOCK);
    // node-pty hands Buffers when spawned without an encoding, strings otherwise.
    const watchTurns = options.watchTurns ?? true;
    this.pty.onData((data: string | Buffer) => {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      this.buffer.append(bytes);
      if (watchTurns) this.turns.observeOutput(bytes);
      this.notify(bytes);
    });
    this.exited = new Promise((resolve) => {
      this.pty.onExit(({ exitCode, signal }) => {
        this.currentState = 'ENDED';
        this.keepalive.dispose();
        // Background children left in the session's process group go with it. The kernel does not
        // reuse a pid while its process group lives, so -pid reaches only what this PTY started.
        signalGroup(this.pid, 'SIGKILL');
        resolve({ exitCode, signal: signal ? signal : null, reason: this.stopReason ?? 'exited' });
        this.notify();
      });
    });
    // Nobody is attached at start: the countdown runs until someone attaches.
    this.keepalive.run();
  }

  get state(): TerminalState {
    return this.currentState;
  }

  get attached(): number {
    return this.attachments;
  }

  get keepaliveRemainingMs(): number {
    return this.keepalive.remainingMs;
  }

  get keepaliveRunning(): boolean {
    return this.keepalive.running;
  }

  write(data: string): void {
    if (this.currentState === 'ENDED') throw this.notRunning();
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.currentState === 'ENDED') throw this.notRunning();
    this.pty.resize(cols, rows);
  }

  /** A person is watching (an attached `svc task attach`). Returns the detach function. */
  attach(): () => void {
    this.attachments += 1;
    this.keepalive.reset();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.attachments -= 1;
      if (this.attachments === 0 && this.currentState === 'RUNNING') this.keepalive.run();
    };
  }

  /**
   * Called on new output, with the bytes just appended to the buffer (its last `output.length`
   * bytes; valid during the call only, as its PTY may reuse them), and once at the end, without.
   */
  onActivity(listener: (output?: Buffer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Parked (an OPEN question): the PTY stays alive and the keepalive is suspended. */
  pause(): void {
    if (this.currentState !== 'RUNNING') return;
    this.currentState = 'PAUSED';
    this.keepalive.hold();
  }

  unpause(): void {
    if (this.currentState !== 'PAUSED') return;
    this.currentState = 'RUNNING';
    if (this.attachments === 0) this.keepalive.run();
  }

  async stop(reason: EndReason, timings: StopTimings): Promise<TerminalExit> {
    if (this.currentState === 'ENDED') return this.exited;
    this.stopReason ??= reason;
    // Every process of the tree with its start time, so a pid reused later is never signalled.
    const seen = new Map<number, string | undefined>();
    const collect = () => {
      for (const pid of [this.pid, ...descendantsOf(this.pid)]) if (!seen.has(pid)) seen.set(pid, processStartTime(pid));
    };
    const signalTree = (signal: NodeJS.Signals) => {
      collect();
      signalGroup(this.pid, signal);
      for (const [pid, started] of seen) if (started !== undefined && processStartTime(pid) === started) signalPid(pid, signal);
    };
    collect();
    try {
      this.pty.write(CTRL_C);
    } catch {
      // the PTY closed between the check and the write
    }
    const polite = setTimeout(() => signalTree('SIGTERM'), timings.interruptMs);
    const forced = setTimeout(() => signalTree('SIGKILL'), Math.max(timings.graceMs, timings.interruptMs));
    const exit = await this.exited;
    clearTimeout(polite);
    clearTimeout(forced);
    // Descendants that left the group and ignored the polite signals do not outlive the stop.
    for (const [pid, started] of seen) if (started !== undefined && processStartTime(pid) === started) signalPid(pid, 'SIGKILL');
    return exit;
  }

  private notify(output?: Buffer): void {
    for (const listener of this.listeners) listener(output);
  }

  private notRunning(): SvcError {
    return new SvcError({
      code: 'terminal_not_running',
      message: `the terminal of task ${this.taskId} has ended (execution ${this.executionId})`,
      details: { taskId: this.taskId, executionId: this.executionId },
    });
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
