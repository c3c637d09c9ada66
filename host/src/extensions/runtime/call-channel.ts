// The host's end of one adapter call: parses each Host Context request at the edge, checks its
// permission before acting, runs it, and relays process output and stream events with flow control.
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import type { CliStreamEvent, SvcErrorData } from '@svc-org/ai-sdk';
import { PermissionDeniedError, SvcError } from '@svc-org/ai-sdk';
import type { Logger } from '../../logging/index.js';
import { childEnv } from '../../processes/child-env.js';
import { ProcessSupervisor, type KillReason, type SupervisedProcess } from '../../processes/process-supervisor.js';
import {
  HostContextProtocol,
  type HostContextShape,
  type HostMethodName,
  type MethodPermission,
} from './host-context-protocol.js';
import type { PluginStorageStore } from './plugin-storage-store.js';
import { STREAM_EVENT_WINDOW, type HostMessage, type WorkerMessage } from './rpc-messages.js';

export interface CallChannelOptions {
  pluginId: string;
  granted: ReadonlySet<string>;
  /** Set for mcp/hooks/skills calls: the files API is open only then. */
  integrationCall: boolean;
  storage: PluginStorageStore;
  logger: Logger;
  hostEnv: NodeJS.ProcessEnv;
  connectionEnv?: Record<string, string>;
  loadConfig: () => Promise<Record<string, unknown>>;
  /** The call's own deadline caps any process timeout a plugin asks for. */
  maxProcessTimeoutMs?: number;
  onEvents?: (events: CliStreamEvent[]) => void;
  /** Observability for tests and the bench: every spawn the host performed. */
  onSpawn?: (pid: number, command: string) => void;
}

const STDOUT_HIGH_WATER_CHARS = 1024 * 1024;

export type CallOutcome = { ok: true; value: unknown } | { ok: false; error: SvcErrorData };

export class CallChannel {
  readonly supervisor = new ProcessSupervisor();
  readonly done: Promise<CallOutcome>;
  private settle!: (outcome: CallOutcome) => void;
  private settled = false;
  private readonly processes = new Map<number, { proc: SupervisedProcess; unacked: number; paused: boolean }>();
  private readonly methods: HostContextShape;

  constructor(private readonly port: MessagePort, private readonly options: CallChannelOptions) {
    this.done = new Promise((resolve) => (this.settle = resolve));
    this.methods = this.createMethods();
    port.on('message', (message: WorkerMessage) => this.receive(message));
    this.send({ t: 'credit', n: STREAM_EVENT_WINDOW });
  }

  grantCredit(events: number): void {
    this.send({ t: 'credit', n: events });
  }

  cancel(reason: 'cancelled' | 'timeout' | 'unloaded'): void {
    this.send({ t: 'cancel', reason });
  }

  /** Resolves the call from the host side (worker crashed or was terminated). */
  fail(error: SvcErrorData): void {
    this.finish({ ok: false, error });
  }

  async killProcesses(reason: KillReason): Promise<void> {
    await this.supervisor.stopAll(reason);
  }

  close(): void {
    this.port.close();
  }

  private finish(outcome: CallOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(outcome);
  }

  private send(message: HostMessage): void {
    try {
      this.port.postMessage(message);
    } catch {
      // the port is closed: the call is over
    }
  }

  private receive(message: WorkerMessage): void {
    switch (message.t) {
      case 'req':
        void this.serve(message.id, message.m, message.a);
        return;
      case 'evs':
        this.options.onEvents?.(message.e);
        return;
      case 'done':
        this.finish(message.ok ? { ok: true, value: message.v } : { ok: false, error: message.e });
        return;
    }
  }

  private async serve(id: number, method: HostMethodName, args: unknown): Promise<void> {
    try {
      const declaration = HostContextProtocol[method];
      if (!declaration) throw new SvcError({ code: 'invalid_request', message: `unknown Host Context method ${String(method)}` });
      this.checkPermission(declaration.permission, method);
      const parsed = declaration.args.safeParse(args);
      if (!parsed.success) {
        throw new SvcError({
          code: 'invalid_request',
          message: `${method}: invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
        });
      }
      const implementation = this.methods[method] as (...a: unknown[]) => unknown;
      const value = await implementation(...(parsed.data as unknown[]));
      if (id !== 0) this.send({ t: 'res', id, ok: true, v: value });
    } catch (error) {
      const data = SvcError.isInstance(error)
        ? error.toJSON()
        : { code: 'host_error', message: error instanceof Error ? error.message : String(error) };
      const redacted = { ...data, message: this.options.logger.redactor.text(data.message) };
      if (id !== 0) this.send({ t: 'res', id, ok: false, e: redacted });
      else this.options.logger.warn('host context notification failed', { method, code: data.code });
    }
  }

  private checkPermission(permission: MethodPermission, method: string): void {
    if (permission === null) return;
    if (permission === 'integration') {
      if (!this.options.integrationCall) {
        throw new SvcError({
          code: 'permission_denied',
          message: `${method} is available only inside an integration call (mcp, hooks, skills)`,
          pluginId: this.options.pluginId,
        });
      }
      return;
    }
    if (!this.options.granted.has(permission)) {
      this.options.logger.warn('permission denied', { method, permission });
      throw new PermissionDeniedError(permission, method, this.options.pluginId);
    }
  }

  private createMethods(): HostContextShape {
    const { storage, pluginId, logger } = this.options;
    const proc = (handle: number) => {
      const entry = this.processes.get(handle);
      if (!entry) throw new SvcError({ code: 'process_not_found', message: `no process with handle ${handle} in this call` });
      return entry;
    };
    return {
      '$process.spawn': (spec, options) => {
        const cap = this.options.maxProcessTimeoutMs;
        const timeoutMs = options.timeoutMs && cap ? Math.min(options.timeoutMs, cap) : (options.timeoutMs ?? cap);
        const supervised = this.supervisor.spawn(
          {
            command: spec.command,
            args: spec.args,
            cwd: spec.cwd,
            stdin: spec.stdin,
            timeoutMs,
            env: childEnv(this.options.hostEnv, this.options.connectionEnv, spec.envPatch),
          },
          {
            onData: (stream, text) => {
              this.send({ t: 'out', h: supervised.handle, k: stream, d: text });
              if (stream !== 'stdout') return;
              const entry = this.processes.get(supervised.handle);
              if (!entry) return;
              entry.unacked += text.length;
              if (!entry.paused && entry.unacked > STDOUT_HIGH_WATER_CHARS) {
                entry.paused = true;
                supervised.pauseStdout();
              }
            },
            onEnd: (stream) => this.send({ t: 'eof', h: supervised.handle, k: stream }),
            onExit: (exit) => {
              this.send({ t: 'exit', h: supervised.handle, x: exit });
              this.processes.delete(supervised.handle);
            },
          },
        );
        this.processes.set(supervised.handle, { proc: supervised, unacked: 0, paused: false });
        this.options.onSpawn?.(supervised.pid, spec.command);
        logger.debug('process started', { pid: supervised.pid, command: spec.command });
        return supervised.started.then(() => ({ handle: supervised.handle, pid: supervised.pid }));
      },
      '$process.write': (handle, data) => proc(handle).proc.write(data),
      '$process.end': (handle) => proc(handle).proc.end(),
      '$process.kill': (handle, signal) => {
        const entry = this.processes.get(handle);
        if (entry) entry.proc.signal(signal);
      },
      '$process.ack': (handle, chars) => {
        const entry = this.processes.get(handle);
        if (!entry) return;
        entry.unacked = Math.max(0, entry.unacked - chars);
        if (entry.paused && entry.unacked <= STDOUT_HIGH_WATER_CHARS / 2) {
          entry.paused = false;
          entry.proc.resumeStdout();
        }
      },
      '$storage.get': (key) => storage.get(pluginId, key),
      '$storage.set': (key, value) => storage.set(pluginId, key, value),
      '$storage.delete': (key) => storage.delete(pluginId, key),
      '$storage.keys': (prefix) => storage.keys(pluginId, prefix),
      '$log': (level, message, fields) => logger[level](message, { plugin: pluginId, ...fields }),
      '$config.get': () => this.options.loadConfig(),
      '$files.readText': async (path) => {
        try {
          return await readFile(path, 'utf8');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
          throw error;
        }
      },
      '$files.writeText': async (path, text) => {
        await mkdir(dirname(path), { recursive: true });
        const temp = `${path}.svc-${process.pid}-${Date.now()}.tmp`;
        await writeFile(temp, text, { mode: 0o600 });
        await rename(temp, path);
      },
      '$files.remove': async (path) => {
        try {
          await rm(path, { force: true });
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ERR_FS_EISDIR' && code !== 'EISDIR') throw error;
          // A folder goes only when empty (an integration tidying up the folder its install created).
          await rmdir(path).catch((reason: NodeJS.ErrnoException) => {
            if (reason.code !== 'ENOTEMPTY' && reason.code !== 'EEXIST') throw reason;
          });
        }
      },
    };
  }
}
