import { spawn as spawnChild } from 'node:child_process';
import {
  type AdapterContext,
  type ChildProcessHandle,
  type HostContext,
  type HostProcessApi,
  type JsonValue,
  type ProcessExit,
} from '@svc-org/ai-sdk';
import { createTestHost, type TestHost } from '@svc-org/ai-sdk/testing';

export interface RealProcessHost extends TestHost {
  context(signal?: AbortSignal): AdapterContext;
}

/**
 * The SDK's test host with real child processes in place of scripted ones: argument arrays, no
 * shell, the child killed on the call's signal and reported as `killedBy: 'cancelled'`, as the host
 * does. For driving the adapter against the stand-in executable.
 */
export function createRealProcessHost(options: { command: string; config?: Record<string, JsonValue>; env?: Record<string, string> }): RealProcessHost {
  const base = createTestHost({ permissions: ['process:spawn', 'config:provider'], config: options.config ?? {} });
  const spawn: HostProcessApi['spawn'] = async (spec, spawnOptions) => {
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
  const host: HostContext = {
    ...base.host,
    process: {
      spawn,
      run: () => Promise.reject(new Error('not used by the claude adapter')),
    },
  };
  return {
    ...base,
    host,
    context: (signal) => ({ host, cli: { command: options.command, version: '2.1.197' }, signal: signal ?? new AbortController().signal }),
  };
}
