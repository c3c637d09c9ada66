import type { AdapterContext } from '../adapter/cli-adapter.js';
import { abortReason } from '../host-context/abort-reason.js';
import type { ChildProcessHandle, ProcessExit, ProcessSpec, SpawnOptions } from '../host-context/host-context.js';
import { readLineBatches } from '../host-context/read-lines.js';
import { StderrTail, type StderrTailOptions } from './stderr-tail.js';

/** How a CLI run ended, from the adapter's point of view. */
export type CliRunEnd =
  /** The CLI exited on its own (look at `exitCode`). */
  | 'exited'
  /** The call was cancelled; the host killed the CLI (or it exited while the cancel was on its way). */
  | 'cancelled'
  /** The call's deadline passed; the host killed the CLI. */
  | 'timeout'
  /** The provider was disabled, updated or uninstalled during the call. */
  | 'unloaded'
  /** The adapter stopped it itself: `stop()`, or the consumer left `lines()` early. */
  | 'stopped';

export interface CliProcessExit extends ProcessExit {
  endedBy: CliRunEnd;
  /** The end of stderr, for the error message. */
  stderr: StderrTail;
}

export interface CliProcessOptions extends Pick<SpawnOptions, 'timeoutMs'> {
  stderr?: StderrTailOptions;
}

/**
 * One run of the CLI for a query, with the bookkeeping every streaming provider needs: stderr drained
 * into a bounded tail while stdout is read line by line, the child killed when the consumer of the
 * stream stops early (or reading throws), and one answer to "how did it end" that tells a cancel from
 * a deadline. Always spawned with the call's signal, so the host kills it on cancel and timeout.
 *
 * ```ts
 * const run = await CliProcess.start(ctx, { command: ctx.cli.command, args, cwd: request.cwd, stdin: '' });
 * for await (const line of run.lines()) yield* parse(line);
 * const end = await run.wait();
 * ```
 */
export class CliProcess {
  readonly stderr: StderrTail;
  private exit?: ProcessExit;
  private stopped = false;
  private readonly stderrDone: Promise<void>;

  private constructor(
    readonly child: ChildProcessHandle,
    private readonly signal: AbortSignal,
    stderrOptions?: StderrTailOptions,
  ) {
    this.stderr = new StderrTail(stderrOptions);
    // Only its tail is ever used; a read error must not outlive a consumer that stopped early.
    this.stderrDone = this.stderr.drain(child.stderr).catch(() => undefined);
    child.exited.then(
      (exit) => (this.exit = exit),
      () => undefined,
    );
  }

  static async start(ctx: AdapterContext, spec: ProcessSpec, options: CliProcessOptions = {}): Promise<CliProcess> {
    const child = await ctx.host.process.spawn(spec, { signal: ctx.signal, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
    return new CliProcess(child, ctx.signal, options.stderr);
  }

  get pid(): number {
    return this.child.pid;
  }

  /** stdout as lines (see `readLines`). Leaving the loop early, or an error in it, kills the CLI. */
  async *lines(): AsyncGenerator<string> {
    for await (const batch of this.lineBatches()) for (const line of batch) yield line;
  }

  /**
   * stdout as batches of lines, one per chunk read (see `readLineBatches`): the parser of a CLI that
   * prints many lines loops over each batch without an await per line. Leaving the loop early, or
   * an error in it, kills the CLI.
   */
  async *lineBatches(): AsyncGenerator<string[]> {
    let complete = false;
    try {
      yield* readLineBatches(this.child.stdout);
      complete = true;
    } finally {
      if (!complete) await this.stop();
    }
  }

  /** Kills the CLI (SIGTERM) unless it has already exited; its end then reads `stopped`. */
  async stop(): Promise<void> {
    if (this.exit !== undefined) return;
    this.stopped = true;
    await this.child.kill('SIGTERM').catch(() => undefined);
  }

  /** Waits for the exit and the end of stderr. */
  async wait(): Promise<CliProcessExit> {
    const exit = await this.child.exited;
    await this.stderrDone;
    return { ...exit, endedBy: this.endedBy(exit), stderr: this.stderr };
  }

  private endedBy(exit: ProcessExit): CliRunEnd {
    if (exit.killedBy !== undefined) return exit.killedBy;
    // A cancel that raced the exit still counts as a cancel: the user asked to stop.
    const aborted = abortReason(this.signal);
    if (aborted !== undefined) return aborted;
    return this.stopped ? 'stopped' : 'exited';
  }
}
