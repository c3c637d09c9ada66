import { abortReason } from '../host-context/abort-reason.js';
import type { ChildProcessHandle, ProcessExit, ProcessSpec } from '../host-context/host-context.js';

/** A chunk a scripted CLI prints; `delayMs` waits before it (after the previous chunk of the same stream). */
export type ScriptedChunk = string | { text: string; delayMs?: number };

/** What a test says a spawned CLI does: print these chunks, then exit. */
export interface ProcessScript {
  stdout?: ScriptedChunk | ScriptedChunk[];
  stderr?: ScriptedChunk | ScriptedChunk[];
  exitCode?: number;
  /** Waits this long after the last chunk before exiting. */
  exitDelayMs?: number;
  /** Never exits on its own (until killed or the call's signal aborts), like a CLI that hangs offline. */
  hang?: boolean;
}

export type SpawnHandler = (spec: ProcessSpec) => ProcessScript | Promise<ProcessScript>;

/** What a test can observe of each process the adapter started. */
export interface SpawnedProcess {
  spec: ProcessSpec;
  pid: number;
  /** Every `kill()` the adapter sent, in order. */
  kills: Array<'SIGTERM' | 'SIGKILL' | 'SIGINT'>;
  /** What the adapter wrote to stdin (`spec.stdin` first). */
  stdin: string[];
  /** Set once it exited. */
  exit?: ProcessExit;
}

export class ChunkQueue implements AsyncIterable<string> {
  private readonly items: string[] = [];
  private closed = false;
  private wake?: () => void;

  push(chunk: string): void {
    this.items.push(chunk);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const next = this.items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

let nextPid = 40_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A process that plays a script. Like the host's: the call's signal kills it and its exit says why
 * (`killedBy: 'cancelled'` or `'timeout'`, from the signal's reason); `kill()` ends it with that signal.
 */
export function startScriptedProcess(script: ProcessScript, spec: ProcessSpec, signal?: AbortSignal): { handle: ChildProcessHandle; record: SpawnedProcess } {
  const stdout = new ChunkQueue();
  const stderr = new ChunkQueue();
  const record: SpawnedProcess = { spec: structuredClone(spec), pid: nextPid++, kills: [], stdin: spec.stdin === undefined ? [] : [spec.stdin] };
  let settle!: (exit: ProcessExit) => void;
  const exited = new Promise<ProcessExit>((resolve) => (settle = resolve));
  let done = false;
  const finish = (exit: ProcessExit) => {
    if (done) return;
    done = true;
    record.exit = exit;
    stdout.close();
    stderr.close();
    signal?.removeEventListener('abort', onAbort);
    settle(exit);
  };
  const onAbort = () => finish({ exitCode: null, signal: 'SIGTERM', killedBy: abortReason(signal!) ?? 'cancelled' });
  if (signal?.aborted) queueMicrotask(onAbort);
  else signal?.addEventListener('abort', onAbort, { once: true });

  const play = async (queue: ChunkQueue, chunks: ScriptedChunk | ScriptedChunk[] | undefined) => {
    for (const chunk of ([] as ScriptedChunk[]).concat(chunks ?? [])) {
      const { text, delayMs } = typeof chunk === 'string' ? { text: chunk, delayMs: undefined } : chunk;
      if (delayMs !== undefined && delayMs > 0) await sleep(delayMs);
      if (done) return;
      queue.push(text);
    }
  };
  void (async () => {
    await Promise.resolve();
    await Promise.all([play(stdout, script.stdout), play(stderr, script.stderr)]);
    if (script.hang || done) return;
    if (script.exitDelayMs !== undefined) await sleep(script.exitDelayMs);
    finish({ exitCode: script.exitCode ?? 0, signal: null });
  })();

  const handle: ChildProcessHandle = {
    pid: record.pid,
    stdout,
    stderr,
    write: async (data) => void record.stdin.push(data),
    end: async () => undefined,
    kill: async (sig = 'SIGTERM') => {
      record.kills.push(sig);
      finish({ exitCode: null, signal: sig });
    },
    exited,
  };
  return { handle, record };
}
