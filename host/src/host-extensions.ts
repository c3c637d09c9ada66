// The provider-extension half of the host services: the registry, the runtime, the extension
// service and the catalog installer. host-services.ts imports this module when a host opens with
// its extensions, so a command that uses only the workspace data (`svc task list`) evaluates none
// of it, nor what it loads (ajv, semver, the worker pool, the HTTPS client).
import type { PlatformInfo } from '@svc-org/ai-sdk';
import { HOST_VERSION, readSystemConfig } from './platform/config/index.js';
import type { ConnectionStore } from './features/connections/index.js';
import type { Db } from './platform/db/index.js';
import { CatalogInstaller } from './features/extensions/catalog-installer/index.js';
import { ExtensionService } from './features/extensions/index.js';
import { ExtensionRegistry } from './features/extensions/registry/index.js';
import { ExtensionRuntime, PluginStorageStore, runtimeLimitsFromSettings, type RuntimeLimitsInput } from './features/extensions/runtime/index.js';
import { ProviderStatsRecorder, ProviderStatsStore } from './features/extensions/stats/index.js';
import type { Logger } from './platform/logging/index.js';

export interface HostExtensions {
  registry: ExtensionRegistry;
  runtime: ExtensionRuntime;
  extensions: ExtensionService;
  catalog: CatalogInstaller;
  stats: ProviderStatsStore;
  statsRecorder: ProviderStatsRecorder;
}

export interface OpenHostExtensionsOptions {
  db: Db;
  logger: Logger;
  platform: PlatformInfo;
  env: NodeJS.ProcessEnv;
  svcHome: string;
  connections: ConnectionStore;
  limits?: RuntimeLimitsInput;
  builtins?: boolean;
  catalogCa?: string | Buffer;
}

export async function openHostExtensions(options: OpenHostExtensionsOptions): Promise<HostExtensions> {
  const { db, logger, env, svcHome, connections } = options;
  const registry = new ExtensionRegistry(db);
  const statsStore = new ProviderStatsStore(db);
  const stats = new ProviderStatsRecorder({ store: statsStore, logger });
  const runtime = new ExtensionRuntime({
    stats,
    storage: new PluginStorageStore(db),
    logger,
    platform: options.platform,
    hostEnv: env,
    svcHome,
    limits: { ...runtimeLimitsFromSettings(env, (key) => readSystemConfig(db, key)), ...options.limits },
  });
  const extensions = new ExtensionService({ registry, runtime, connections, logger, platform: options.platform, env, svcHome });
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
  return { registry, runtime, extensions, catalog, stats: statsStore, statsRecorder: stats };
}
