// Drives the real `svc` executable the way a user does: a child process with its own SVC_HOME.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const SVC_BIN = join(REPO_ROOT, 'host/bin/svc.cjs');
export const FIXTURE_CLIS = join(REPO_ROOT, 'test/fixtures/clis');
export const FIXTURE_PROVIDERS = join(REPO_ROOT, 'test/fixtures/providers');

export interface SvcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SvcSandbox {
  home: string;
  env: NodeJS.ProcessEnv;
  run(args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<SvcResult>;
  /** `entry`: the svc entry to run, host/bin/svc.mjs by default (another build's bundle, for an upgrade). */
  start(args: string[], options?: { env?: NodeJS.ProcessEnv; entry?: string }): ChildProcess & { output: { stdout: string; stderr: string } };
  cleanup(): void;
}

/** A fresh SVC_HOME and PATH (with the test CLIs first) for one test file. */
export function createSvcSandbox(extraPath: string[] = []): SvcSandbox {
  const home = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_HOME: home,
    PATH: [...extraPath, FIXTURE_CLIS, process.env.PATH ?? ''].join(delimiter),
  };
  delete env.SVC_LOG_LEVEL;
  const start = (args: string[], options: { env?: NodeJS.ProcessEnv; entry?: string } = {}) => {
    const child = spawn(process.execPath, [options.entry ?? SVC_BIN, ...args], { env: { ...env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcess & {
      output: { stdout: string; stderr: string };
    };
    child.output = { stdout: '', stderr: '' };
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (child.output.stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (child.output.stderr += d));
    return child;
  };
  return {
    home,
    env,
    start,
    run(args, options = {}) {
      return new Promise((resolvePromise, reject) => {
        const child = start(args, options);
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`svc ${args.join(' ')} timed out\n${child.output.stdout}\n${child.output.stderr}`));
        }, options.timeoutMs ?? 20_000);
        child.stdin!.end(options.input ?? '');
        child.once('close', (code, signal) => {
          clearTimeout(timer);
          resolvePromise({ code, signal, stdout: child.output.stdout, stderr: child.output.stderr });
        });
      });
    },
    cleanup() {
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Awaited: an async probe's promise is always truthy, so without this it would never wait.
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
