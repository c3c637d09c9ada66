import type { ChildProcessHandle, ProcessExit, ProcessSpec } from '../host-context/host-context.js';

/** What a test says a spawned CLI does: print these chunks, then exit. */
export interface ProcessScript {
  stdout?: string | string[];
  stderr?: string | string[];
  exitCode?: number;
  /** Never exits on its own (until killed or aborted), like a CLI that hangs offline. */
  hang?: boolean;
}

export type SpawnHandler = (spec: ProcessSpec) => ProcessScript | Promise<ProcessScript>;

class ChunkQueue implements AsyncIterable<string> {
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

export function startScriptedProcess(script: ProcessScript, signal?: AbortSignal): ChildProcessHandle & { stdin: string[] } {
  const stdout = new ChunkQueue();
  const stderr = new ChunkQueue();
  const stdin: string[] = [];
  let settle!: (exit: ProcessExit) => void;
  const exited = new Promise<ProcessExit>((resolve) => (settle = resolve));
  let done = false;
  const finish = (exit: ProcessExit) => {
    if (done) return;
    done = true;
    stdout.close();
    stderr.close();
    settle(exit);
  };
  const kill = async (sig: 'SIGTERM' | 'SIGKILL' | 'SIGINT' = 'SIGTERM') => finish({ exitCode: null, signal: sig });
  signal?.addEventListener('abort', () => finish({ exitCode: null, signal: 'SIGTERM', killedBy: 'cancelled' }), { once: true });
  queueMicrotask(() => {
    for (const chunk of ([] as string[]).concat(script.stdout ?? [])) stdout.push(chunk);
    for (const chunk of ([] as string[]).concat(script.stderr ?? [])) stderr.push(chunk);
    if (!script.hang) finish({ exitCode: script.exitCode ?? 0, signal: null });
  });
  return {
    pid: nextPid++,
    stdout,
    stderr,
    stdin,
    write: async (data) => void stdin.push(data),
    end: async () => undefined,
    kill,
    exited,
  };
}
