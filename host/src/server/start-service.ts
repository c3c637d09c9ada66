import { SvcError } from '@svc-org/ai-sdk';
import { startHarness } from '../../../harness/src/outbox/index.js';
import { startRouting } from '../../../harness/src/routing/index.js';
import { HOST_VERSION } from '../config/host-version.js';
import { readSystemConfig } from '../config/read-system-config.js';
import { openHostServices, type HostServices } from '../host-services.js';
import { createHttpApp, startHttpServer } from '../http/index.js';
import type { LogLevel } from '../logging/index.js';
import { ALL_OPERATIONS, OperationInvoker, OperationRegistry } from '../operations/index.js';
import { processStartTime } from '../processes/index.js';
import {
  TerminalManager,
  recoverOrphanedExecutions,
  resolveTerminalSettings,
  type RecoveryReport,
  type TerminalSettings,
} from '../terminals/index.js';
import { InstallToken } from './install-token.js';
import { ServerFile } from './server-file.js';

export const DEFAULT_PORT = 7878;

export interface StartServiceOptions {
  env?: NodeJS.ProcessEnv;
  /** Overrides SVC_PORT; 0 picks a free port. */
  port?: number;
  terminalSettings?: Partial<TerminalSettings>;
  stderrLogLevel?: LogLevel;
  builtins?: boolean;
}

export interface RunningService {
  url: string;
  port: number;
  services: HostServices;
  terminals: TerminalManager;
  recovery: RecoveryReport;
  /** Stops every terminal (recording its execution), closes HTTP, releases server.json. */
  close(): Promise<void>;
}

/**
 * `svc serve`: takes the SVC_HOME lock, cleans up after a previous service that died, then
 * serves HTTP on 127.0.0.1 and publishes where it listens in server.json.
 */
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const env = options.env ?? process.env;
  const port = resolvePort(options.port, env.SVC_PORT);
  const services = await openHostServices({ env, stderrLogLevel: options.stderrLogLevel, builtins: options.builtins });
  const serverFile = new ServerFile(services.svcHome);
  const identity = { pid: process.pid, pidStartTime: processStartTime(process.pid) ?? null, version: HOST_VERSION, startedAt: new Date().toISOString() };
  try {
    serverFile.claim(identity);
  } catch (error) {
    await services.close();
    throw error;
  }
  try {
    const token = InstallToken.ensure(services.svcHome);
    const { logger, domain, connections } = services;
    logger.redactor.addSecret(token);
    // Secrets of every connection are known to the redactor before any request is answered.
    for (const connection of connections.list()) {
      for (const value of connections.secretValuesOf(connection)) logger.redactor.addSecret(value);
    }
    const recovery = recoverOrphanedExecutions(domain.executions, logger);
    const settings = resolveTerminalSettings(env, (key) => readSystemConfig(services.db, key), options.terminalSettings);
    services.signalDir.ensure();
    const terminals = new TerminalManager({
      domain,
      extensions: services.extensions,
      connections,
      logger,
      signalDir: services.signalDir,
      settings,
      hostEnv: env,
    });
    // The harness: its routes, and its one outbox timer (which first settles sends a kill interrupted).
    const harness = startHarness({ services, terminals, env });
    // Inbound routing and the Workbench: their routes, and the timer that turns stop hooks into review batches.
    const routing = startRouting({ services, terminals, env });
    const invoker = new OperationInvoker({ registry: new OperationRegistry(ALL_OPERATIONS), services: async () => services, terminals, caller: { via: 'http' } });
    const app = createHttpApp({
      invoker,
      domain,
      terminals,
      connections,
      extensions: services.extensions,
      catalog: services.catalog,
      logger,
      token,
      hostVersion: HOST_VERSION,
      moduleRoutes: [harness.routes, routing.routes],
    });
    const http = await startHttpServer(app, port);
    serverFile.publish({ ...identity, url: http.url, port: http.port });
    logger.info('service started', { url: http.url, recoveredExecutions: recovery.failed.length, killedLeftovers: recovery.killed.length });
    let closing: Promise<void> | undefined;
    return {
      url: http.url,
      port: http.port,
      services,
      terminals,
      recovery,
      close: () =>
        (closing ??= (async () => {
          await routing.stop();
          await harness.stop();
          await terminals.close();
          await http.close();
          serverFile.release();
          logger.info('service stopped');
          await services.close();
        })()),
    };
  } catch (error) {
    serverFile.release();
    await services.close();
    throw error;
  }
}

function resolvePort(explicit: number | undefined, fromEnv: string | undefined): number {
  const raw = explicit ?? (fromEnv !== undefined && fromEnv.trim() !== '' ? Number(fromEnv) : DEFAULT_PORT);
  if (!Number.isInteger(raw) || raw < 0 || raw > 65535) {
    throw new SvcError({ code: 'invalid_settings', message: 'SVC_PORT (or --port) must be an integer from 0 to 65535 (0 picks a free port)' });
  }
  return raw;
}
