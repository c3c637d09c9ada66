import { spawn as spawnChild } from 'node:child_process';
import { abortReason } from '../host-context/abort-reason.js';
import { filterProviderEnvPatch } from '../host-context/provider-env-patch.js';
import type { ChildProcessHandle, ProcessExit, ProcessSpec } from '../host-context/host-context.js';
import type { SpawnedProcess } from './scripted-process.js';

/**
 * A real child process, started as the host starts one: an argument array (never a shell), the
 * environment plus `envPatch` (filtered as svc filters it: `filterProviderEnvPatch`), killed on the call's signal with `killedBy` saying why. For driving an
 * adapter against a stand-in executable that replays a recorded CLI.
 */
export function startRealProcess(spec: ProcessSpec, env: Record<string, string | undefined>, signal?: AbortSignal): { handle: ChildProcessHandle; record: SpawnedProcess } {
  const child = spawnChild(spec.command, spec.args, {
    cwd: spec.cwd,
    env: Object.fromEntries(Object.entries({ ...env, ...filterProviderEnvPatch(spec.envPatch).env }).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const record: SpawnedProcess = { spec: structuredClone(spec), pid: child.pid ?? -1, kills: [], stdin: [] };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  // A CLI that exits before reading its stdin must not crash the test with EPIPE.
  child.stdin.on('error', () => undefined);
  let killedBy: ProcessExit['killedBy'];
  const onAbort = () => {
    killedBy = abortReason(signal!) ?? 'cancelled';
    child.kill('SIGTERM');
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const exited = new Promise<ProcessExit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => {
      signal?.removeEventListener('abort', onAbort);
      const exit: ProcessExit = { exitCode, signal: exitSignal, ...(killedBy ? { killedBy } : {}) };
      record.exit = exit;
      resolve(exit);
    });
  });
  exited.catch(() => undefined); // a spawn error also ends the streams; callers see it when they await
  if (spec.stdin !== undefined) {
    record.stdin.push(spec.stdin);
    child.stdin.end(spec.stdin);
  }
  const handle: ChildProcessHandle = {
    pid: record.pid,
    stdout: child.stdout,
    stderr: child.stderr,
    write: (data) =>
      new Promise((resolve) => {
        record.stdin.push(data);
        child.stdin.write(data, () => resolve());
      }),
    end: async () => void child.stdin.end(),
    kill: async (sig = 'SIGTERM') => {
      record.kills.push(sig);
      child.kill(sig);
    },
    exited,
  };
  return { handle, record };
}
