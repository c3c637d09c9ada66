// A real `svc serve` child process and a client for its HTTP API, for end-to-end tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { waitFor, type SvcSandbox } from './svc-process.js';

export interface ServeProcess {
  child: ChildProcess & { output: { stdout: string; stderr: string } };
  url: string;
  token: string;
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `svc serve` on a free port and waits until it prints where it listens. */
export async function startServe(svc: SvcSandbox, env: NodeJS.ProcessEnv = {}, args: string[] = [], options: { entry?: string } = {}): Promise<ServeProcess> {
  const child = svc.start(['serve', ...args], { env: { SVC_PORT: '0', ...env }, ...options });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let early: string | undefined;
  void exited.then(() => (early = `svc serve exited early\n${child.output.stdout}\n${child.output.stderr}`));
  const url = await waitFor(
    () => {
      if (early) throw new Error(early);
      return /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(child.output.stdout)?.[1];
    },
    60_000,
    'svc serve to listen',
  );
  const token = readFileSync(join(svc.home, 'token'), 'utf8').trim();
  return {
    child,
    url,
    token,
    exited,
    async api(method, path, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/** True while `pid` runs (a zombie has already exited). */
export function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Reads a task terminal's buffer from `cursor` until `text` shows up (30 s at most); returns that read. */
export async function readTerminalUntil(server: ServeProcess, taskId: number, text: string, cursor = 0): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${cursor}`);
    if (read.status === 200 && read.body.data.includes(text)) return read.body;
    if (Date.now() > deadline) throw new Error(`"${text}" never appeared after cursor ${cursor}: ${JSON.stringify(read.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `server.api(...)`, or throws with the answer when its status is not 2xx; returns the body. */
export async function apiOk<T = any>(server: ServeProcess, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await server.api<T>(method, path, body);
  if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}
