// The worker's side of the Host Context: a proxy that turns each call into a message. It imports
// no schema library: the host parses everything at its edge.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type {
  ChildProcessHandle,
  HostContext,
  JsonValue,
  LogFields,
  PlatformInfo,
  ProcessExit,
  ProcessRunResult,
  ProcessSpec,
  SpawnOptions,
  SvcErrorData,
} from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import type { HostMessage, HostMethodArgs, HostMethodName, HostMethodResults, WorkerMessage } from '@svc-org/ai-sdk';
import { TextQueue } from './text-queue.js';

const STDERR_UNREAD_LIMIT = 1024 * 1024;
const ACK_EVERY_CHARS = 64 * 1024;

interface LocalProcess {
  stdout: TextQueue;
  stderr: TextQueue;
  settle: (exit: ProcessExit) => void;
}

export class WorkerRpc {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  readonly processes = new Map<number, LocalProcess>();
  private creditWaiter: (() => void) | undefined;
  /** What the host lets this call send before it reads more: events and size units. */
  credit = 0;
  creditBytes = 0;
  private closed = false;
  /** The host cancelled the call: no more credit will matter, a waiting pump must stop. */
  private cancelled = false;

  constructor(readonly port: MessagePort, private readonly onCancel: (reason: string) => void) {
    port.on('message', (message: HostMessage) => this.receive(message));
    // The host closed its end (the call is over for it): stop as if cancelled.
    port.once('close', () => {
      this.onCancel('closed');
      this.close();
    });
  }

  /** Handles messages the host sent before anyone listened (a cancel that came while queued). */
  drain(): void {
    for (;;) {
      const entry = receiveMessageOnPort(this.port);
      if (!entry) return;
      this.receive(entry.message as HostMessage);
    }
  }

  call<M extends HostMethodName>(method: M, ...args: HostMethodArgs<M>): Promise<HostMethodResults[M]> {
    const id = this.nextId++;
    if (this.closed) return Promise.reject(new SvcError({ code: 'cancelled', message: 'the host closed the call' }));
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.post({ t: 'req', id, m: method, a: args });
    });
  }

  /** A call nobody waits for (logging, flow-control acks): id 0 gets no reply. */
  notify<M extends HostMethodName>(method: M, ...args: HostMethodArgs<M>): void {
    this.post({ t: 'req', id: 0, m: method, a: args });
  }

  post(message: WorkerMessage): void {
    if (!this.closed) this.port.postMessage(message);
  }

  /** Waits until one more event of `size` fits the window; rejects once the call is closed. */
  async waitForCredit(size: number): Promise<void> {
    while (this.credit < 1 || this.creditBytes < size) {
      if (this.closed || this.cancelled) throw new SvcError({ code: 'cancelled', message: 'the host ended the call' });
      await new Promise<void>((resolve) => (this.creditWaiter = resolve));
    }
  }

  /** Rejects everything still pending: the channel is closing. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.creditWaiter?.();
    this.creditWaiter = undefined;
    for (const { reject } of this.pending.values()) {
      reject(new SvcError({ code: 'cancelled', message: 'the host closed the call' }));
    }
    this.pending.clear();
    for (const local of this.processes.values()) {
      local.stdout.close();
      local.stderr.close();
    }
    this.port.close();
  }

  private receive(message: HostMessage): void {
    switch (message.t) {
      case 'res': {
        const waiter = this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id);
        if (message.ok) waiter.resolve(message.v);
        else waiter.reject(toError(message.e));
        return;
      }
      case 'out':
        this.processes.get(message.h)?.[message.k].push(message.d);
        return;
      case 'eof':
        this.processes.get(message.h)?.[message.k].close();
        return;
      case 'exit': {
        const local = this.processes.get(message.h);
        if (!local) return;
        local.settle(message.x);
        return;
      }
      case 'credit':
        this.credit += message.n;
        this.creditBytes += message.b;
        this.creditWaiter?.();
        this.creditWaiter = undefined;
        return;
      case 'cancel':
        this.cancelled = true;
        this.onCancel(message.reason);
        this.creditWaiter?.();
        this.creditWaiter = undefined;
        return;
    }
  }
}

function toError(data: SvcErrorData): SvcError {
  return SvcError.from(data);
}

export function createWorkerHostContext(rpc: WorkerRpc, pluginId: string, platform: PlatformInfo): HostContext {
  const spawn = async (spec: ProcessSpec, options: SpawnOptions = {}): Promise<ChildProcessHandle> => {
    if (typeof spec !== 'object' || spec === null || typeof spec === 'string') {
      throw new SvcError({ code: 'invalid_request', message: 'process.spawn takes { command, args[] }; a shell command string is refused' });
    }
    options.signal?.throwIfAborted();
    const { handle, pid } = await rpc.call('$process.spawn', spec, options.timeoutMs ? { timeoutMs: options.timeoutMs } : {});
    let unacked = 0;
    const ack = (chars: number) => {
      unacked += chars;
      if (unacked >= ACK_EVERY_CHARS) {
        rpc.notify('$process.ack', handle, unacked);
        unacked = 0;
      }
    };
    let settle!: (exit: ProcessExit) => void;
    const exited = new Promise<ProcessExit>((resolve) => (settle = resolve));
    const local: LocalProcess = {
      stdout: new TextQueue(ack),
      stderr: new TextQueue(undefined, STDERR_UNREAD_LIMIT),
      settle,
    };
    rpc.processes.set(handle, local);
    void exited.then(() => rpc.processes.delete(handle));
    const kill = (signal: 'SIGTERM' | 'SIGKILL' | 'SIGINT' = 'SIGTERM') => rpc.call('$process.kill', handle, signal);
    options.signal?.addEventListener('abort', () => void kill('SIGTERM').catch(() => undefined), { once: true });
    return {
      pid,
      stdout: local.stdout,
      stderr: local.stderr,
      write: (data) => rpc.call('$process.write', handle, data),
      end: () => rpc.call('$process.end', handle),
      kill,
      exited,
    };
  };

  const log = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: LogFields) =>
    rpc.notify('$log', level, String(message), fields === undefined ? undefined : sanitizeFields(fields));

  return {
    pluginId,
    platform,
    process: {
      spawn,
      async run(spec, options): Promise<ProcessRunResult> {
        const child = await spawn(spec, options);
        const collect = async (stream: AsyncIterable<string>) => {
          let text = '';
          for await (const chunk of stream) text += chunk;
          return text;
        };
        const [stdout, stderr] = await Promise.all([collect(child.stdout), collect(child.stderr)]);
        return { ...(await child.exited), stdout, stderr };
      },
    },
    storage: {
      get: <T = JsonValue>(key: string) => rpc.call('$storage.get', key) as Promise<T | undefined>,
      set: (key, value) => rpc.call('$storage.set', key, value),
      delete: (key) => rpc.call('$storage.delete', key),
      keys: (prefix = '') => rpc.call('$storage.keys', prefix),
    },
    log: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    config: { get: <T extends object>() => rpc.call('$config.get') as Promise<T> },
    files: {
      readText: (path) => rpc.call('$files.readText', path),
      writeText: (path, text) => rpc.call('$files.writeText', path, text),
      remove: (path) => rpc.call('$files.remove', path),
    },
  };
}

/** Log fields must survive structured clone: errors and functions become text. */
function sanitizeFields(fields: LogFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Error) out[key] = { name: value.name, message: value.message };
    else if (typeof value === 'function' || typeof value === 'symbol') out[key] = String(value);
    else out[key] = value;
  }
  return out;
}
