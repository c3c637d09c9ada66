import type { AdapterContext } from '../adapter/cli-adapter.js';
import type { ResolvedCli } from '../adapter/requests.js';
import { PermissionDeniedError } from '../errors/permission-denied-error.js';
import type {
  HostContext,
  JsonValue,
  LogFields,
  PlatformInfo,
  ProcessRunResult,
  ProcessSpec,
} from '../host-context/host-context.js';
import type { Permission } from '../manifest/permissions.js';
import { startScriptedProcess, type SpawnHandler } from './scripted-process.js';

export interface TestHostOptions {
  pluginId?: string;
  /** Granted permissions; calls needing others fail with `permission_denied`, as in the real host. */
  permissions?: Permission[];
  /** Decides what each spawned process prints and how it exits. */
  spawn?: SpawnHandler;
  config?: Record<string, JsonValue>;
  platform?: Partial<PlatformInfo>;
  cli?: Partial<ResolvedCli>;
  files?: Record<string, string>;
}

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: LogFields;
}

export interface TestHost {
  host: HostContext;
  /** A fresh AdapterContext; pass a signal to test cancellation. */
  context(signal?: AbortSignal): AdapterContext;
  spawned: ProcessSpec[];
  logs: LogRecord[];
  storage: Map<string, JsonValue>;
  files: Map<string, string>;
}

/** An in-memory HostContext: unit-test an adapter without a host, a worker or a database. */
export function createTestHost(options: TestHostOptions = {}): TestHost {
  const pluginId = options.pluginId ?? 'test.provider';
  const granted = new Set<string>(options.permissions ?? ['process:spawn']);
  const spawned: ProcessSpec[] = [];
  const logs: LogRecord[] = [];
  const storage = new Map<string, JsonValue>();
  const files = new Map<string, string>(Object.entries(options.files ?? {}));
  const need = (permission: Permission, method: string) => {
    if (!granted.has(permission)) throw new PermissionDeniedError(permission, method, pluginId);
  };
  const needIntegration = (method: string) => {
    if (![...granted].some((p) => p.startsWith('integration:'))) {
      throw new PermissionDeniedError('integration:*', method, pluginId);
    }
  };
  const spawnHandler: SpawnHandler = options.spawn ?? (() => ({ exitCode: 0 }));

  const spawn: HostContext['process']['spawn'] = async (spec, spawnOptions) => {
    need('process:spawn', 'process.spawn');
    if (typeof spec !== 'object' || !Array.isArray(spec.args)) {
      throw new TypeError('process.spawn needs { command, args[] }; shell strings are refused');
    }
    spawned.push(structuredClone(spec));
    const script = await spawnHandler(spec);
    const handle = startScriptedProcess(script, spawnOptions?.signal);
    if (spec.stdin !== undefined) handle.stdin.push(spec.stdin);
    return handle;
  };

  const host: HostContext = {
    pluginId,
    process: {
      spawn,
      async run(spec, runOptions): Promise<ProcessRunResult> {
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
      },
    },
    storage: {
      get: async (key) => storage.get(key),
      set: async (key, value) => void storage.set(key, structuredClone(value)),
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
      async get() {
        need('config:provider', 'config.get');
        return structuredClone(options.config ?? {});
      },
    },
    files: {
      async readText(path) {
        needIntegration('files.readText');
        return files.get(path);
      },
      async writeText(path, text) {
        needIntegration('files.writeText');
        files.set(path, text);
      },
      async remove(path) {
        needIntegration('files.remove');
        files.delete(path);
      },
    },
  };

  const cli: ResolvedCli = { command: options.cli?.command ?? 'cli', version: options.cli?.version ?? '0.0.0' };
  return {
    host,
    context: (signal) => ({ host, cli, signal: signal ?? new AbortController().signal }),
    spawned,
    logs,
    storage,
    files,
  };
}
