// Runs `<command> <versionArgs…>` once: an argument array (never a shell), stdin closed so a CLI
// cannot wait for input, and a deadline after which the process is killed. On POSIX the probe gets
// its own process group and the whole group is killed, so a wrapper script's children die with it.
// (That is why this uses spawn and not execFile: execFile does not pass `detached` on to spawn, and
// its timeout kills only the direct child, leaving a hung wrapper's children running.)
import { spawn, type ChildProcess } from 'node:child_process';

// Generous: some CLIs are launchers that start a second Node process just to print a version
// (gemini --version takes 3-6 s on a loaded machine).
export const DEFAULT_PROBE_TIMEOUT_MS = 20_000;

export type ProbeOutcome =
  | { kind: 'exited'; stdout: string; stderr: string }
  | { kind: 'failed'; exitCode?: number; signal?: string; error?: string; stdout: string; stderr: string }
  | { kind: 'timeout'; stdout: string; stderr: string };

export interface ProbeOptions {
  env: Record<string, string | undefined>;
  timeoutMs: number;
  platform: NodeJS.Platform;
}

// A version answer is one short line; output past this is dropped, not buffered.
const MAX_OUTPUT_BYTES = 64 * 1024;

function killTree(child: ChildProcess, ownGroup: boolean): void {
  try {
    if (ownGroup && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGKILL');
      return;
    }
  } catch {
    // The group is already gone, or was never made: fall back to the child itself.
  }
  child.kill('SIGKILL');
}

export function probeCliVersion(command: string, args: readonly string[], options: ProbeOptions): Promise<ProbeOutcome> {
  const ownGroup = options.platform !== 'win32';
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(command, [...args], {
        env: options.env,
        shell: false,
        windowsHide: true,
        detached: ownGroup,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      // spawn throws synchronously on arguments it cannot pass (a NUL byte, for one).
      resolve({ kind: 'failed', error: (error as Error).message, stdout: '', stderr: '' });
      return;
    }

    const output = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    let kept = 0;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (kept >= MAX_OUTPUT_BYTES) return;
      const piece = chunk.subarray(0, MAX_OUTPUT_BYTES - kept);
      kept += piece.length;
      into.push(piece);
    };
    child.stdout?.on('data', collect(output.stdout));
    child.stderr?.on('data', collect(output.stderr));
    const text = () => ({ stdout: Buffer.concat(output.stdout).toString('utf8'), stderr: Buffer.concat(output.stderr).toString('utf8') });

    let settled = false;
    const settle = (outcome: ProbeOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      killTree(child, ownGroup);
      settle({ kind: 'timeout', ...text() });
    }, options.timeoutMs);

    child.on('error', (error: NodeJS.ErrnoException) => settle({ kind: 'failed', error: error.code ?? error.message, ...text() }));
    // `close`, not `exit`: the output is complete only once the pipes have closed.
    child.on('close', (code, signal) => {
      if (code === 0) settle({ kind: 'exited', ...text() });
      else settle({ kind: 'failed', ...(code !== null ? { exitCode: code } : {}), ...(signal ? { signal } : {}), ...text() });
    });
  });
}
