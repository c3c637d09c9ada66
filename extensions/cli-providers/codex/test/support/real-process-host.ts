import { spawn as spawnChild } from 'node:child_process';
import {
  PermissionDeniedError,
  type AdapterContext,
  type ChildProcessHandle,
  type HostProcessApi,
  type ProcessExit,
  type ProcessRunResult,
} from '@svc-org/ai-sdk';
import { createTestHost, type TestHost, type TestHostOptions } from '@svc-org/ai-sdk/testing';

/**
 * The SDK's test host with real child processes: spawns for real (argument arrays, no shell),
 * kills on the call's signal, reports `killedBy: 'cancelled'` as the host does. For driving the
 * adapter against the codex stand-in executable.
 */
export function createRealProcessHost(options: TestHostOptions & { cliCommand: string; env?: Record<string, string> }): TestHost & {
  realContext(signal?: AbortSignal): AdapterContext;
} {
  const base = createTestHost(options);
  const granted = new Set<string>(options.permissions ?? ['process:spawn']);
  const spawn: HostProcessApi['spawn'] = async (spec, spawnOptions) => {
    if (!granted.has('process:spawn')) throw new PermissionDeniedError('process:spawn', 'process.spawn', base.host.pluginId);
    base.spawned.push(structuredClone(spec));
    const child = spawnChild(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...options.env, ...spec.envPatch },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    let killedBy: ProcessExit['killedBy'];
    const onAbort = () => {
      killedBy = 'cancelled';
      child.kill('SIGTERM');
    };
    if (spawnOptions?.signal?.aborted) onAbort();
    spawnOptions?.signal?.addEventListener('abort', onAbort, { once: true });
    const exited = new Promise<ProcessExit>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (exitCode, signal) => {
        spawnOptions?.signal?.removeEventListener('abort', onAbort);
        resolve({ exitCode, signal, ...(killedBy ? { killedBy } : {}) });
      });
    });
    exited.catch(() => undefined); // a spawn error also ends the streams; callers see it when they await
    if (spec.stdin !== undefined) child.stdin.end(spec.stdin);
    const handle: ChildProcessHandle = {
      pid: child.pid ?? -1,
      stdout: child.stdout,
      stderr: child.stderr,
      write: (data) => new Promise((resolve) => child.stdin.write(data, () => resolve())),
      end: async () => void child.stdin.end(),
      kill: async (signal = 'SIGTERM') => void child.kill(signal),
      exited,
    };
    return handle;
  };
  const run: HostProcessApi['run'] = async (spec, runOptions): Promise<ProcessRunResult> => {
    const child = await spawn(spec, runOptions);
    let stdout = '';
    let stderr = '';
    await Promise.all([
      (async () => {
        for await (const chunk of child.stdout) stdout += chunk;
      })(),
      (async () => {
        for await (const chunk of child.stderr) stderr += chunk;
      })(),
    ]);
    return { ...(await child.exited), stdout, stderr };
  };
  const host = { ...base.host, process: { spawn, run } };
  return {
    ...base,
    host,
    realContext: (signal) => ({ host, cli: { command: options.cliCommand, version: '0.169.0' }, signal: signal ?? new AbortController().signal }),
  };
}
