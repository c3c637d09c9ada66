// Hermes Agent's `hermes send --to <platform>:<chat>[:<thread>] --json "<text>"`. Hermes takes no
// idempotency key, so anything short of a clear answer is reported as unverified, never retried.
import { spawn } from 'node:child_process';
import type { GatewayClient, GatewaySendRequest, SendOutcome } from './gateway-client.js';

export interface HermesClientOptions {
  /** The `hermes` executable; found on PATH when not given. */
  command?: string | null;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  spawnError?: NodeJS.ErrnoException;
  timedOut: boolean;
}

const MAX_STDOUT_CHARS = 1024 * 1024;
const MAX_STDERR_CHARS = 64 * 1024;

/** The last `max` characters of a stream, kept in pieces (no copy per piece). */
class Tail {
  private pieces: string[] = [];
  private length = 0;
  constructor(private readonly max: number) {}
  push(piece: string): void {
    this.pieces.push(piece);
    this.length += piece.length;
    while (this.length - this.pieces[0]!.length >= this.max) this.length -= this.pieces.shift()!.length;
  }
  text(): string {
    return this.pieces.join('').slice(-this.max);
  }
}

export class HermesClient implements GatewayClient {
  constructor(private readonly options: HermesClientOptions = {}) {}

  async send(request: GatewaySendRequest, signal?: AbortSignal): Promise<SendOutcome> {
    const target = [request.platform, request.to, ...(request.threadId ? [request.threadId] : [])].join(':');
    const run = await this.run(['send', '--to', target, '--json', request.text], signal);
    // It never started: nothing can have left.
    if (run.spawnError) return { kind: 'retry', code: 'gateway_unreachable', message: `cannot run hermes: ${run.spawnError.code ?? run.spawnError.message}` };
    if (run.timedOut || run.code === null) {
      return { kind: 'unverified', code: 'gateway_timeout', message: `hermes send did not finish (${run.timedOut ? 'timed out' : `signal ${run.signal}`})` };
    }
    const answer = lastJsonObject(run.stdout);
    if (run.code === 0) {
      const id = answer?.message_id;
      if ((typeof id === 'string' && id !== '') || typeof id === 'number') {
        return { kind: 'sent', platformMessageId: String(id), ...(typeof answer?.chat_id === 'string' ? { chatId: answer.chat_id } : {}) };
      }
      return { kind: 'unverified', code: 'no_message_id', message: 'hermes send succeeded without a message id' };
    }
    const error = typeof answer?.error === 'string' ? answer.error : firstLine(run.stderr) || `exit ${run.code}`;
    if (run.code === 2) return { kind: 'refused', code: 'gateway_usage_error', message: `hermes refused the request: ${error}` };
    if (run.code === 1) return { kind: 'retry', code: 'gateway_delivery_failed', message: `hermes could not deliver: ${error}` };
    return { kind: 'unverified', code: 'gateway_unexpected_exit', message: `hermes exited ${run.code}: ${error}` };
  }

  async health(signal?: AbortSignal): Promise<{ ok: boolean; detail: string }> {
    const run = await this.run(['--version'], signal);
    if (run.spawnError) return { ok: false, detail: `cannot run hermes: ${run.spawnError.code ?? run.spawnError.message}` };
    return run.code === 0 ? { ok: true, detail: firstLine(run.stdout) || 'hermes answered' } : { ok: false, detail: `hermes --version exited ${run.code}` };
  }

  private run(args: string[], signal?: AbortSignal): Promise<Run> {
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    return new Promise((resolve) => {
      const child = spawn(this.options.command || 'hermes', args, { env: this.options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
      // Only the end of each stream is read (the JSON answer comes last): a chatty or broken hermes
      // cannot grow the service's memory past these.
      const stdout = new Tail(MAX_STDOUT_CHARS);
      const stderr = new Tail(MAX_STDERR_CHARS);
      let timedOut = false;
      let spawnError: NodeJS.ErrnoException | undefined;
      child.stdout.setEncoding('utf8').on('data', (d: string) => stdout.push(d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
      const kill = () => child.kill('SIGKILL');
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, timeoutMs);
      signal?.addEventListener('abort', kill, { once: true });
      child.on('error', (error) => (spawnError = error));
      child.on('close', (code, exitSignal) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', kill);
        resolve({ code, signal: exitSignal, stdout: stdout.text(), stderr: stderr.text(), timedOut, ...(spawnError ? { spawnError } : {}) });
      });
    });
  }
}

function lastJsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  const candidates = [trimmed, ...trimmed.split('\n').reverse()];
  for (const candidate of candidates) {
    try {
      const value = JSON.parse(candidate) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not JSON: try the next candidate
    }
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}
