// What an adapter may ask of the host. Every method is remote (it crosses the worker line) and so
// async; each names the permission it needs and the host checks it before acting.

export interface ProcessSpec {
  /** Executable path or name; never a shell command line. */
  command: string;
  args: string[];
  cwd?: string;
  /** Variables to add or override on top of the host's environment for the child. */
  envPatch?: Record<string, string>;
  /** Written to the child's stdin, which is then closed. Omit to keep stdin open for `write()`. */
  stdin?: string;
}

export interface SpawnOptions {
  signal?: AbortSignal;
  /** Kill the process tree after this many milliseconds (the host caps it at the call's own timeout). */
  timeoutMs?: number;
}

export interface ProcessExit {
  exitCode: number | null;
  signal: string | null;
  /** Why the host ended it, when it did: `cancelled`, `timeout` or `unloaded`. */
  killedBy?: 'cancelled' | 'timeout' | 'unloaded';
}

export interface ChildProcessHandle {
  readonly pid: number;
  /** UTF-8 text chunks in order; ends when the child closes stdout. Backpressure applies. */
  readonly stdout: AsyncIterable<string>;
  /** UTF-8 text chunks; if never read, only the last MiB is kept. */
  readonly stderr: AsyncIterable<string>;
  write(data: string): Promise<void>;
  end(): Promise<void>;
  kill(signal?: 'SIGTERM' | 'SIGKILL' | 'SIGINT'): Promise<void>;
  readonly exited: Promise<ProcessExit>;
}

export interface ProcessRunResult extends ProcessExit {
  stdout: string;
  stderr: string;
}

/** `process:spawn` */
export interface HostProcessApi {
  spawn(spec: ProcessSpec, options?: SpawnOptions): Promise<ChildProcessHandle>;
  /** Spawn, collect both streams (bounded), and wait for the exit. */
  run(spec: ProcessSpec, options?: SpawnOptions): Promise<ProcessRunResult>;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * `T` if it survives a JSON round trip (strings, finite numbers, booleans, null, arrays and plain
 * objects of those, optional properties allowed), `never` otherwise. Lets interfaces be stored
 * without a cast: `storage.set<Ledger>('k', ledger)` compiles, a value holding a function does not.
 */
export type JsonCompatible<T> = T extends string | number | boolean | null
  ? T
  : T extends (...args: never[]) => unknown
    ? never
    : T extends bigint | symbol | undefined
      ? never
      : T extends ReadonlyArray<infer U>
        ? ReadonlyArray<JsonCompatible<U>>
        : T extends object
          ? { [K in keyof T]: JsonCompatible<T[K]> }
          : never;

/**
 * Plugin-scoped key/value storage in the host database. No permission needed: a plugin sees only
 * its own keys. Values are stored as JSON; `get<T>()` returns what was stored under the key with the
 * type you name (the host does not check it: when older versions of your provider wrote another
 * shape, parse it with zod instead).
 */
export interface PluginStorage {
  get<T = JsonValue>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T & JsonCompatible<T>): Promise<void>;
  delete(key: string): Promise<void>;
  /** Keys starting with `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
}

export interface PlatformInfo {
  os: 'darwin' | 'linux' | 'win32' | string;
  arch: string;
  homeDir: string;
  hostVersion: string;
  nodeVersion: string;
}

export interface LogFields {
  [key: string]: unknown;
}

/** Goes to the host log; values of sensitive config keys and token-like strings are redacted there. */
export interface PluginLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * `config:provider`: the connection's settings for this provider, validated by the host against
 * config.schema.json with its defaults applied, sensitive values included. A call without a
 * connection (`svc query --provider <id>`) gets the schema's defaults alone (`{}` when none).
 * Name your settings type: `ctx.host.config.get<MySettings>()`.
 */
export interface ProviderConfigApi {
  get<T extends object = Record<string, JsonValue>>(): Promise<T>;
}

/**
 * Files in the CLI's own configuration, for integrations. Usable only inside an integration call
 * (mcp / hooks / skills), and only with that integration's permission.
 */
export interface IntegrationFilesApi {
  /** The file's text; undefined when it does not exist. */
  readText(path: string): Promise<string | undefined>;
  /** Writes atomically (mode 0600), creating missing folders. */
  writeText(path: string, text: string): Promise<void>;
  /** Removes a file, or a folder that is empty (a folder with anything in it is left as it is). */
  remove(path: string): Promise<void>;
}

export interface HostContext {
  readonly pluginId: string;
  readonly process: HostProcessApi;
  readonly storage: PluginStorage;
  readonly platform: PlatformInfo;
  readonly log: PluginLogger;
  readonly config: ProviderConfigApi;
  readonly files: IntegrationFilesApi;
}
