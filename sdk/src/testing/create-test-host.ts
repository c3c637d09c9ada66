import type { AdapterContext } from '../adapter/cli-adapter.js';
import type { ResolvedCli } from '../adapter/requests.js';
import { PermissionDeniedError } from '../errors/permission-denied-error.js';
import { SvcError } from '../errors/svc-error.js';
import { abortError } from '../host-context/abort-reason.js';
import type {
  ChildProcessHandle,
  HostContext,
  JsonValue,
  LogFields,
  PlatformInfo,
  ProcessRunResult,
  ProcessSpec,
  SpawnOptions,
} from '../host-context/host-context.js';
import type { Permission } from '../manifest/permissions.js';
import { AdapterMethods } from '../protocol/v1/adapter-methods.js';
import { HostMethods, type HostMethodName } from '../protocol/v1/host-methods.js';
import { startRealProcess } from './real-process.js';
import { startScriptedProcess, type SpawnedProcess, type SpawnHandler } from './scripted-process.js';

export type IntegrationKind = 'mcp' | 'hooks' | 'skills';

export interface TestHostOptions {
  pluginId?: string;
  /** Granted permissions (default `['process:spawn']`); calls needing others fail with `permission_denied`, as in the real host. */
  permissions?: readonly Permission[];
  /** Decides what each spawned process prints and how it exits (scripted processes, the default). */
  spawn?: SpawnHandler;
  /** `real`: spawn real child processes (a stand-in executable) instead of playing scripts. */
  processes?: 'scripted' | 'real';
  /** Real processes: added to this process's environment (`undefined` removes a variable), before each spec's `envPatch`. */
  env?: Record<string, string | undefined>;
  config?: Record<string, JsonValue>;
  platform?: Partial<PlatformInfo>;
  cli?: Partial<ResolvedCli>;
  /** The files the integration files API sees, by absolute path. */
  files?: Record<string, string>;
  /** Folders that exist (besides the ancestors of `files`), e.g. an empty `.codex`. */
  directories?: string[];
}

export interface TestCallOptions {
  /** The caller's cancellation: aborting it is a cancel (`abortReason` → `cancelled`). */
  signal?: AbortSignal;
  /** The call's deadline: after this many ms the signal aborts as the host's timeout does (`abortReason` → `timeout`). */
  timeoutMs?: number;
  /**
   * An integration call (`mcp`, `hooks`, `skills`). As in the real host, it needs the permission
   * `integration:<kind>`, and only inside one may the adapter use `host.files`.
   */
  integration?: IntegrationKind;
}

/** One adapter call whose end the test decides: `cancel()` as the user does, `expireDeadline()` as the host's timer does. */
export interface TestCall {
  context: AdapterContext;
  cancel(): void;
  expireDeadline(): void;
}

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: LogFields;
}

export interface TestHost {
  /** The host as an ordinary (non-integration) call sees it. */
  host: HostContext;
  /** A fresh AdapterContext. Pass a signal (or `{ signal }`) to test cancellation, `{ timeoutMs }` for a deadline. */
  context(options?: AbortSignal | TestCallOptions): AdapterContext;
  /** A context with hands on its end: see `TestCall`. */
  call(options?: Omit<TestCallOptions, 'signal' | 'timeoutMs'>): TestCall;
  /** The spec of every process started, in order. */
  spawned: ProcessSpec[];
  /** Every process started, with the kills it received and how it exited. */
  processes: SpawnedProcess[];
  logs: LogRecord[];
  storage: Map<string, JsonValue>;
  files: Map<string, string>;
  /** Folders that exist: those given, and the ancestors of every file written (as the host's writeText makes them). */
  directories: Set<string>;
}

/**
 * An in-memory HostContext: unit-test an adapter without a host, a worker or a database. It applies
 * the real host's rules: the same permission gates (and `host.files` only inside an integration
 * call), JSON-only storage, the call's signal killing its processes with `killedBy` saying why.
 */
// long: the in-memory HostContext is one closure whose methods share the call's state (granted permissions, spawned processes, storage, its signal)
export function createTestHost(options: TestHostOptions = {}): TestHost {
  const pluginId = options.pluginId ?? 'test.provider';
  const granted = new Set<string>(options.permissions ?? ['process:spawn']);
  const spawned: ProcessSpec[] = [];
  const processes: SpawnedProcess[] = [];
  const logs: LogRecord[] = [];
  const storage = new Map<string, JsonValue>();
  const files = new Map<string, string>(Object.entries(options.files ?? {}));
  // Folders exist as the host's writeText makes them: every ancestor of a file written.
  const directories = new Set<string>([...files.keys(), ...(options.directories ?? [])].flatMap((path) => [...ancestors(path)]));
  for (const folder of options.directories ?? []) directories.add(folder);
  // The real host's gates, from the same protocol table: a permission, or "inside an integration call".
  const gate = (method: HostMethodName, integrationCall: boolean) => {
    const permission = HostMethods[method].permission;
    const name = method.slice(1);
    if (permission === null) return;
    if (permission === 'integration') {
      if (!integrationCall) {
        throw new SvcError({ code: 'permission_denied', message: `${name} is available only inside an integration call (mcp, hooks, skills)`, pluginId });
      }
      return;
    }
    if (!granted.has(permission)) throw new PermissionDeniedError(permission, name, pluginId);
  };
  const spawnHandler: SpawnHandler = options.spawn ?? (() => ({ exitCode: 0 }));

  const spawn = async (spec: ProcessSpec, spawnOptions?: SpawnOptions): Promise<ChildProcessHandle> => {
    gate('$process.spawn', false);
    if (typeof spec !== 'object' || spec === null || typeof spec.command !== 'string' || !Array.isArray(spec.args)) {
      throw new SvcError({ code: 'invalid_request', message: 'process.spawn needs { command, args[] }; shell strings are refused' });
    }
    spawned.push(structuredClone(spec));
    const started =
      options.processes === 'real'
        ? startRealProcess(spec, { ...process.env, ...options.env }, spawnOptions?.signal)
        : startScriptedProcess(await spawnHandler(spec), spec, spawnOptions?.signal);
    processes.push(started.record);
    return started.handle;
  };

  const run = async (spec: ProcessSpec, runOptions?: SpawnOptions): Promise<ProcessRunResult> => {
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

  const makeHost = (integrationCall: boolean): HostContext => {
    return {
      pluginId,
      process: { spawn, run },
      storage: {
        get: async <T = JsonValue>(key: string) => storage.get(key) as T | undefined,
        set: async (key, value) => {
          // What the host database keeps is JSON: a value that does not survive it is refused here too.
          const text = JSON.stringify(value);
          if (text === undefined) throw new SvcError({ code: 'invalid_request', message: `storage.set: the value of "${key}" is not JSON` });
          storage.set(key, JSON.parse(text) as JsonValue);
        },
        delete: async (key) => void storage.delete(key),
        keys: async (prefix = '') => [...storage.keys()].filter((k) => k.startsWith(prefix)).sort(),
      },
      platform: {
        os: 'linux',
        arch: 'x64',
        homeDir: '/home/test',
        hostVersion: '0.3.0',
        nodeVersion: '20.0.0',
        ...options.platform,
      },
      log: {
        debug: (message, fields) => void logs.push({ level: 'debug', message, fields }),
        info: (message, fields) => void logs.push({ level: 'info', message, fields }),
        warn: (message, fields) => void logs.push({ level: 'warn', message, fields }),
        error: (message, fields) => void logs.push({ level: 'error', message, fields }),
      },
      config: {
        get: async <T extends object>() => {
          gate('$config.get', integrationCall);
          return structuredClone(options.config ?? {}) as T;
        },
      },
      files: {
        async readText(path) {
          gate('$files.readText', integrationCall);
          return files.get(path);
        },
        async writeText(path, text) {
          gate('$files.writeText', integrationCall);
          for (const folder of ancestors(path)) directories.add(folder);
          files.set(path, text);
        },
        async remove(path) {
          gate('$files.remove', integrationCall);
          if (files.delete(path)) return;
          // As the host: a folder goes only when nothing is left in it.
          const inside = (candidate: string) => candidate.startsWith(`${path}/`);
          if (![...files.keys()].some(inside) && ![...directories].some(inside)) directories.delete(path);
        },
      },
    };
  };

  const plainHost = makeHost(false);
  const integrationHost = makeHost(true);
  const cli: ResolvedCli = { command: options.cli?.command ?? 'cli', version: options.cli?.version ?? '0.0.0' };

  const hostFor = (integration: IntegrationKind | undefined): HostContext => {
    if (integration === undefined) return plainHost;
    // The host refuses the integration call itself before the adapter runs.
    const permission = AdapterMethods[`${integration}.inspect`].permission;
    if (permission && !granted.has(permission)) throw new PermissionDeniedError(permission, `${integration} integration`, pluginId);
    return integrationHost;
  };

  const call = (callOptions: TestCallOptions = {}): TestCall => {
    const controller = new AbortController();
    const outer = callOptions.signal;
    if (outer?.aborted) controller.abort(abortError('cancelled'));
    else outer?.addEventListener('abort', () => controller.abort(abortError('cancelled')), { once: true });
    if (callOptions.timeoutMs !== undefined) {
      const timer = setTimeout(() => controller.abort(abortError('timeout')), callOptions.timeoutMs);
      controller.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      timer.unref?.();
    }
    return {
      context: { host: hostFor(callOptions.integration), cli, signal: controller.signal },
      cancel: () => controller.abort(abortError('cancelled')),
      expireDeadline: () => controller.abort(abortError('timeout')),
    };
  };

  return {
    host: plainHost,
    context: (contextOptions) => {
      const resolved = contextOptions instanceof AbortSignal ? { signal: contextOptions } : (contextOptions ?? {});
      // A caller's signal alone is passed through as it is, so a test can check the adapter forwards it.
      if (resolved.signal !== undefined && resolved.timeoutMs === undefined) {
        return { host: hostFor(resolved.integration), cli, signal: resolved.signal };
      }
      return call(resolved).context;
    },
    call: (callOptions) => call(callOptions),
    spawned,
    processes,
    logs,
    storage,
    files,
    directories,
  };
}

function* ancestors(path: string): Generator<string> {
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) yield path.slice(0, at);
}

/** `createTestHost` with real child processes: drive the adapter against a stand-in executable. */
export function createRealProcessHost(options: Omit<TestHostOptions, 'processes' | 'spawn'> = {}): TestHost {
  return createTestHost({ ...options, processes: 'real' });
}
