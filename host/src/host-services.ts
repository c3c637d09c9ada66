// Everything a host process needs, opened once: the CLI, `svc serve` and `svc mcp` build on this.
import { arch, homedir, platform } from 'node:os';
import { join } from 'node:path';
import type { PlatformInfo } from '@svc-org/ai-sdk';
import { HOST_VERSION, databasePath, resolveSvcHome } from './platform/config/index.js';
// Direct, not through connections/index.ts: that loads the settings validator and, with it, ajv.
import { ConnectionStore } from './features/connections/connection-store.js';
import { databaseTemplate, MIGRATIONS, openDatabase, type Db } from './platform/db/index.js';
import { Domain } from './features/domain/index.js';
import type { CatalogInstaller } from './features/extensions/catalog-installer/index.js';
import type { ExtensionService } from './features/extensions/index.js';
import type { ExtensionRegistry } from './features/extensions/registry/index.js';
import type { ExtensionRuntime, RuntimeLimitsInput } from './features/extensions/runtime/index.js';
import type { ProviderStatsRecorder, ProviderStatsStore } from './features/extensions/stats/index.js';
import type { HostExtensions } from './host-extensions.js';
import { DEFAULT_PORTS, OpenedPlugins, type HostPlugin, type HostPorts } from './host-plugin.js';
import { Logger, type LogLevel } from './platform/logging/index.js';
// Direct, not through terminals/index.ts: opening the host loads no terminal manager, node-pty or child_process.
import { SignalDir } from './features/terminals/signal-dir.js';
// A type only (erased): the operation layer's context names the terminal manager through it (below).
import type { TerminalManager } from './features/terminals/index.js';

export interface HostServices {
  svcHome: string;
  db: Db;
  logger: Logger;
  platform: PlatformInfo;
  registry: ExtensionRegistry;
  connections: ConnectionStore;
  runtime: ExtensionRuntime;
  extensions: ExtensionService;
  /** Catalog install, update, rollback and uninstall. */
  catalog: CatalogInstaller;
  /** Workspaces, projects, tasks, labels and executions. */
  domain: Domain;
  signalDir: SignalDir;
  /** Running-provider statistics as written (read by `svc ext stats`). */
  stats: ProviderStatsStore;
  /** Gathers this process's provider statistics; `flush()` writes them now. */
  statsRecorder: ProviderStatsRecorder;
  /** The plugins this host was opened with, and their state (stores made when the host opened). */
  plugins: OpenedPlugins;
  /** What the host's features ask of its plugins (the host's defaults where no plugin answers). */
  ports: HostPorts;
  close(): Promise<void>;
}

// The operation layer's context names what a process opened without importing it (it sits below the
// features): an operation's handler sees these services and, inside `svc serve`, the terminal manager.
declare module './operation-framework/operation-context.js' {
  interface OperationServices extends HostServices {}
  interface OperationTerminals extends TerminalManager {}
}

export interface OpenHostServicesOptions {
  env?: NodeJS.ProcessEnv;
  limits?: RuntimeLimitsInput;
  stderrLogLevel?: LogLevel;
  /** Register the official providers shipped with the service (off for tests that count rows). */
  builtins?: boolean;
  /** Trusted CAs for the catalog in place of Node's store (in-process tests with a throwaway CA). */
  catalogCa?: string | Buffer;
  /**
   * Open the provider extensions (registry, runtime, extension service, catalog installer): on
   * unless the caller uses only the workspace data. Off, those fields throw when read, and the
   * built-in providers' sync and the catalog's recovery wait for the next host that opens them.
   */
  extensions?: boolean;
  /** The plugins to open with the host: their migrations run with the host's, their state is made now. */
  plugins?: readonly HostPlugin<any>[];
  /**
   * The caller only reads the workspace data: a home without a database is answered from the build's
   * template, read-only, and none is made there (see openDatabase). Only with `extensions: false`.
   */
  readOnly?: boolean;
}

export async function openHostServices(options: OpenHostServicesOptions = {}): Promise<HostServices> {
  const env = options.env ?? process.env;
  const svcHome = resolveSvcHome(env);
  const plugins = options.plugins ?? [];
  // A new home's database starts as the build's migrated template (no template when run from the sources).
  const migrations = [...MIGRATIONS, ...plugins.flatMap((plugin) => plugin.migrations)];
  const db = openDatabase(databasePath(svcHome), { migrations, template: databaseTemplate(), readOnly: options.readOnly === true && options.extensions === false });
  const levelFromEnv = env.SVC_LOG_LEVEL as LogLevel | undefined;
  const logger = new Logger({ file: join(svcHome, 'logs', 'svc.log'), stderrLevel: options.stderrLogLevel ?? levelFromEnv });
  for (const key of ['SVC_EXTENSION_CATALOG_TOKEN', 'SVC_TOKEN']) logger.redactor.addSecret(env[key]);
  const platformInfo = platformOf(env);
  const connections = new ConnectionStore(db);
  const machinery: HostExtensions | undefined =
    options.extensions === false
      ? undefined
      : await (await import('./host-extensions.js')).openHostExtensions({
          db,
          logger,
          platform: platformInfo,
          env,
          svcHome,
          connections,
          ...(options.limits ? { limits: options.limits } : {}),
          ...(options.builtins !== undefined ? { builtins: options.builtins } : {}),
          ...(options.catalogCa ? { catalogCa: options.catalogCa } : {}),
        });
  const extensionsOf = (): HostExtensions => {
    if (!machinery) throw new Error('the host was opened without its provider extensions');
    return machinery;
  };
  const signalDir = new SignalDir(svcHome);
  const domain = new Domain(db, { signals: signalDir });
  const opened = new OpenedPlugins(plugins);
  const ports: HostPorts = { ...DEFAULT_PORTS };
  const services: HostServices = {
    svcHome,
    db,
    logger,
    platform: platformInfo,
    get registry() {
      return extensionsOf().registry;
    },
    connections,
    get runtime() {
      return extensionsOf().runtime;
    },
    get extensions() {
      return extensionsOf().extensions;
    },
    get catalog() {
      return extensionsOf().catalog;
    },
    domain,
    signalDir,
    get stats() {
      return extensionsOf().stats;
    },
    get statsRecorder() {
      return extensionsOf().statsRecorder;
    },
    plugins: opened,
    ports,
    async close() {
      await machinery?.runtime.close();
      // The last batch of statistics is written before the database closes.
      machinery?.statsRecorder.close();
      db.close();
      // The log is written asynchronously: a short-lived CLI flushes it before it exits.
      await logger.close();
    },
  };
  try {
    initPlugins(services, plugins, opened, ports);
  } catch (error) {
    await services.close();
    throw error;
  }
  return services;
}

function platformOf(env: NodeJS.ProcessEnv): PlatformInfo {
  return { os: platform(), arch: arch(), homeDir: env.HOME ?? homedir(), hostVersion: HOST_VERSION, nodeVersion: process.versions.node };
}

/** Each plugin's state is made now, over the migrated schema; the ports it fills replace the defaults. */
function initPlugins(services: HostServices, plugins: readonly HostPlugin<any>[], opened: OpenedPlugins, ports: HostPorts): void {
  for (const plugin of plugins) {
    const instance = plugin.init(services);
    opened.set(plugin, instance.state);
    Object.assign(ports, instance.ports);
  }
}
