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

/** Plugin-scoped key/value storage in the host database. No permission needed: a plugin sees only its own keys. */
export interface PluginStorage {
  get(key: string): Promise<JsonValue | undefined>;
  set(key: string, value: JsonValue): Promise<void>;
  delete(key: string): Promise<void>;
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

/** `config:provider`: the connection's settings for this provider, defaults applied. */
export interface ProviderConfigApi {
  get(): Promise<Record<string, JsonValue>>;
}

/**
 * Files in the CLI's own configuration, for integrations. Usable only inside an integration call
 * (mcp / hooks / skills), and only with that integration's permission.
 */
export interface IntegrationFilesApi {
  readText(path: string): Promise<string | undefined>;
  writeText(path: string, text: string): Promise<void>;
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
