// The shell examples of the documentation, and a shell to run them as written: `svc` is the real
// executable (a function calling it with this Node), everything else is what PATH holds.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { REPO_ROOT, SVC_BIN, waitFor } from './svc-process.js';

export interface Example {
  /** The heading above it (a `#` comment line inside a block counts as one too). */
  section: string;
  /** The command, its trailing comment removed. */
  line: string;
}

/** Every command line of the ```sh blocks of `files` (paths from the repository root), in order. */
export function shellExamples(files: string[]): Example[] {
  const out: Example[] = [];
  for (const file of files) {
    let section = '';
    let inSh = false;
    for (const raw of readFileSync(join(REPO_ROOT, file), 'utf8').split('\n')) {
      if (raw.startsWith('#')) section = raw.replace(/^#+\s*/, '');
      if (raw.startsWith('```')) {
        inSh = !inSh && raw.trim() === '```sh';
        continue;
      }
      if (!inSh) continue;
      const line = raw.replace(/\s{2,}#.*$/, '').replace(/^#.*$/, '').trim();
      if (line) out.push({ section, line });
    }
  }
  return out;
}

/** What a shell needs so that `svc` runs the repository's executable: SVC_TEST_NODE and SVC_TEST_BIN. */
export const SVC_SHELL_ENV = { SVC_TEST_NODE: process.execPath, SVC_TEST_BIN: SVC_BIN };
const SHELL_PRELUDE = 'svc() { "$SVC_TEST_NODE" "$SVC_TEST_BIN" "$@"; }';

export interface ShellOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Runs one line in `/bin/sh`; 60 s at most. */
export function runShell(line: string, options: ShellOptions, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `${SHELL_PRELUDE}\n${line}`], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${line}\n${stdout}\n${stderr}`));
    }, 60_000);
    // A line that reads no input may have ended (and closed its stdin) before this write: not an error.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(input);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs an interactive line in a real terminal: waits for `ready`, types `leave`; returns the exit code. */
export async function runInTerminal(line: string, ready: string, leave: string, options: ShellOptions): Promise<number> {
  const term = pty.spawn('/bin/sh', ['-c', `${SHELL_PRELUDE}\n${line}`], { cols: 100, rows: 30, cwd: options.cwd, env: options.env as Record<string, string> });
  let screen = '';
  term.onData((data) => (screen += data));
  const exited = new Promise<{ exitCode: number }>((resolve) => term.onExit(resolve));
  await waitFor(() => screen.includes(ready), 20_000, `"${ready}" from ${line}`);
  term.write(leave);
  return (await exited).exitCode;
}
