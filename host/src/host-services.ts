// Everything a host process needs, opened once: the CLI, `svc serve` and `svc mcp` build on this.
import { arch, homedir, platform } from 'node:os';
import { join } from 'node:path';
import type { PlatformInfo } from '@svc-org/ai-sdk';
import { HOST_VERSION, databasePath, readSystemConfig, resolveSvcHome } from './config/index.js';
import { ConnectionStore } from './connections/index.js';
import { openDatabase, type Db } from './db/index.js';
import { Domain } from './domain/index.js';
import { CatalogInstaller } from './extensions/catalog-installer/index.js';
import { ExtensionService } from './extensions/index.js';
import { ExtensionRegistry } from './extensions/registry/index.js';
import { ExtensionRuntime, PluginStorageStore, runtimeLimitsFromSettings, type RuntimeLimitsInput } from './extensions/runtime/index.js';
import { ProviderStatsRecorder, ProviderStatsStore } from './extensions/stats/index.js';
import { Logger, type LogLevel } from './logging/index.js';
import { SignalDir } from './terminals/index.js';

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
  close(): Promise<void>;
}

export interface OpenHostServicesOptions {
  env?: NodeJS.ProcessEnv;
  limits?: RuntimeLimitsInput;
  stderrLogLevel?: LogLevel;
  /** Register the official providers shipped with the service (off for tests that count rows). */
  builtins?: boolean;
  /** Trusted CAs for the catalog in place of Node's store (in-process tests with a throwaway CA). */
  catalogCa?: string | Buffer;
}

export async function openHostServices(options: OpenHostServicesOptions = {}): Promise<HostServices> {
  const env = options.env ?? process.env;
  const svcHome = resolveSvcHome(env);
  const db = openDatabase(databasePath(svcHome));
  const levelFromEnv = env.SVC_LOG_LEVEL as LogLevel | undefined;
  const logger = new Logger({ file: join(svcHome, 'logs', 'svc.log'), stderrLevel: options.stderrLogLevel ?? levelFromEnv });
  for (const key of ['SVC_EXTENSION_CATALOG_TOKEN', 'SVC_TOKEN']) logger.redactor.addSecret(env[key]);
  const platformInfo: PlatformInfo = {
    os: platform(),
    arch: arch(),
    homeDir: env.HOME ?? homedir(),
    hostVersion: HOST_VERSION,
    nodeVersion: process.versions.node,
  };
  const registry = new ExtensionRegistry(db);
  const connections = new ConnectionStore(db);
  const statsStore = new ProviderStatsStore(db);
  const stats = new ProviderStatsRecorder({ store: statsStore, logger });
  const runtime = new ExtensionRuntime({
    stats,
    storage: new PluginStorageStore(db),
    logger,
    platform: platformInfo,
    hostEnv: env,
    svcHome,
    limits: { ...runtimeLimitsFromSettings(env, (key) => readSystemConfig(db, key)), ...options.limits },
  });
  const extensions = new ExtensionService({ registry, runtime, connections, logger, platform: platformInfo, env });
  if (options.builtins !== false) await extensions.syncBuiltins();
  const catalog = new CatalogInstaller({
    db,
    registry,
    runtime,
    logger,
    svcHome,
    env,
    preflightOptions: () => extensions.preflightOptions(),
    hostVersion: HOST_VERSION,
    ...(options.catalogCa ? { ca: options.catalogCa } : {}),
    connectionsOf: (id) => connections.list().filter((connection) => connection.providerId === id).map((connection) => connection.name),
  });
  // A catalog operation a kill interrupted is cleaned up before anything else uses the store.
  await catalog.recover().catch((error: Error) => logger.warn('catalog install recovery failed', { error: error.message }));
  const signalDir = new SignalDir(svcHome);
  const domain = new Domain(db, { signals: signalDir });
  return {
    svcHome,
    db,
    logger,
    platform: platformInfo,
    registry,
    connections,
    runtime,
    extensions,
    catalog,
    domain,
    signalDir,
    stats: statsStore,
    statsRecorder: stats,
    async close() {
      await runtime.close();
      // The last batch of statistics is written before the database closes.
      stats.close();
      db.close();
      // The log is written asynchronously: a short-lived CLI flushes it before it exits.
      await logger.close();
    },
  };
}
