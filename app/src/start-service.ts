import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { HOST_VERSION, readSystemConfig } from '@svc-org/host/platform/config';
import { EventWorker, createEventCrashHook } from '@svc-org/host/platform/events';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { LiveUpdates, WebSessions, createHttpApp, resolveWebRoot, startHttpServer } from '@svc-org/host/adapters/http';
import type { LogLevel } from '@svc-org/host/platform/logging';
import { OperationInvoker, OperationRegistry } from '@svc-org/host/operation-framework';
import { killProcessTree, processStartTime } from '@svc-org/host/platform/processes';
import {
  HolderPool,
  TerminalManager,
  holderBuild,
  recoverOrphanedExecutions,
  resolveTerminalSettings,
  takeHolderExits,
  terminalHolderEnabled,
  type RecoveryReport,
  type TerminalSettings,
} from '@svc-org/host/features/terminals';
import { taskWorktreesOf, WorktreeWatcher } from '@svc-org/host/features/worktrees';
import { endOfRestart, worktreeHasChanges } from '@svc-org/host/features/lifecycle';
import { InstallToken, ServerFile } from '@svc-org/host/client';

export const DEFAULT_PORT = 7878;
// The domain-event worker's longest sleep; an append in this process wakes it at once.
const DEFAULT_EVENT_POLL_MS = 500;

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
  /** A one-time link that signs a browser in to the web UI. */
  loginUrl(): string;
  /** The MCP sessions /mcp holds open now (those still initializing included). */
  mcpSessionCount(): number;
  /**
   * Closes HTTP and releases server.json. The task terminals keep running in their holder for the
   * next service unless `stopTerminals` (or the holder is off): then each is stopped and recorded.
   */
  close(options?: { stopTerminals?: boolean }): Promise<void>;
}

/**
 * `svc serve`: takes the SVC_HOME lock, cleans up after a previous service that died, then
 * serves HTTP on 127.0.0.1 and publishes where it listens in server.json.
 */
// long: the composition root of `svc serve`: the start-up order (lock, recovery, stores, runtime, HTTP, harness, server.json) reads top to bottom here, each part built in its own module
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  // The plugins are imported statically by the modules below: the MCP adapter imports them into the
  // `svc mcp` bundle, where a dynamic import would leave the bundle's zod initialised after the MCP
  // SDK's first use of it.
  const [{ McpHttpEndpoint, mcpSessionSettings }, { HOST_PLUGINS }, { ALL_OPERATIONS }] = await Promise.all([
    import('@svc-org/host/adapters/mcp/http/mcp-http-endpoint'),
    import('./host-plugins.js'),
    import('./all-operations.js'),
  ]);
  const env = options.env ?? process.env;
  const port = resolvePort(options.port, env.SVC_PORT);
  const pollMs = eventPollMs(env.SVC_EVENT_POLL_MS);
  const mcpSessions = mcpSessionSettings(env);
  const services = await openHostServices({ env, stderrLogLevel: options.stderrLogLevel, builtins: options.builtins, plugins: HOST_PLUGINS });
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
    // The terminal holders a previous service left (after a crash, restart or upgrade) and what they hold.
    const holders = terminalHolderEnabled(env, (key) => readSystemConfig(services.db, key))
      ? new HolderPool({ svcHome: services.svcHome, build: holderBuild(env), logger, env })
      : undefined;
    const held = holders ? await holders.reconnect() : [];
    const recovery = recoverOrphanedExecutions(domain.executions, logger, { held, exits: holders ? takeHolderExits(services.svcHome) : new Map() });
    // Run folders of terminals that are gone; those of terminals taken back stay.
    removeRunFolders(services.svcHome, new Set(recovery.reattach.map((entry) => entry.held.terminal.meta.runtimeDir)));
    const settings = resolveTerminalSettings(env, (key) => readSystemConfig(services.db, key), options.terminalSettings);
    services.signalDir.ensure();
    // A plugin (the harness) knows which tasks are project Workbenches (made by routing before any child exists).
    const { ports } = services;
    const terminals = new TerminalManager({
      domain,
      extensions: services.extensions,
      connections,
      logger,
      signalDir: services.signalDir,
      settings,
      svcHome: services.svcHome,
      systemConfig: (key) => readSystemConfig(services.db, key),
      hostEnv: env,
      isWorkbench: (taskId) => ports.isWorkbench(taskId),
      // A project's Workbench reviews and coordinates from the project folder; every other task of a
      // project that isolates tasks runs in its own worktree.
      prepareWorkspace: async (taskId) =>
        ports.isWorkbench(taskId)
          ? { cwd: domain.projects.get(domain.tasks.get(taskId).projectId).repoPath }
          : taskWorktreesOf(services, env).prepare(taskId),
      inspectChanges: (taskId) => worktreeHasChanges(taskWorktreesOf(services, env), taskId),
      harnessFiles: () => ports.terminalFiles(),
      // The page's "Stop all agents (N)" counts the terminals still starting too.
      onStartingChanged: () => web.live.publish('terminals'),
      ...(holders ? { holders } : {}),
    });
    for (const { execution, held: terminal } of recovery.reattach) {
      await terminals.reattach(execution, terminal).catch((error) => {
        // Not taken back: the execution is interrupted (resumable), as when its holder is gone.
        logger.error('could not take back a terminal from its holder', { taskId: execution.taskId, executionId: execution.id, error: String(error) });
        domain.executions.finish(execution.id, endOfRestart());
        killProcessTree(terminal.terminal.pid, 'SIGKILL');
        terminal.connection.forget(terminal.terminal.id);
      });
    }
    const web = { root: resolveWebRoot(env), sessions: new WebSessions(), live: new LiveUpdates() };
    web.live.watchDatabase(() => Number((services.db.prepare('PRAGMA data_version').get() as { data_version: number }).data_version));
    // Every operation, the plugins' beside the host's (the one registry); each plugin starts its
    // workers with the service (the harness's outbox, routing and Workbench timers).
    const registry = ALL_OPERATIONS;
    const running = HOST_PLUGINS.flatMap((plugin) => (plugin.start ? [plugin.start({ services, terminals, env })] : []));
    // Open tasks' branches compared in the background: an overlap reaches the project's Workbench.
    const worktreeWatcher = new WorktreeWatcher({
      worktrees: taskWorktreesOf(services, env),
      logger,
      env,
      onOverlap: (projectId, overlap) => {
        for (const plugin of running) plugin.onTaskOverlap?.(projectId, overlap);
      },
      // The base moved under an open task (a commit made outside svc): its page shows the conflict now.
      onBaseConflict: () => web.live.publish('tasks'),
    });
    // The durable domain events (execution ended, stop hook arrived, task status changed) are
    // consumed here. This service holds the SVC_HOME lock, so a claim left in the table belonged to a
    // service that died: it is released now, not after its lease. Types no part consumes are marked
    // done by the worker at once, so nothing stays pending.
    domain.events.releaseClaims();
    const crashAt = createEventCrashHook(env);
    const eventWorker = new EventWorker({
      store: domain.events,
      owner: `serve:${process.pid}`,
      handle: async (event) => {
        for (const plugin of running) plugin.handleDomainEvent?.(event);
      },
      pollMs,
      onError: (error, event) =>
        logger.warn('domain event not handled; it is retried', { eventId: event?.id, type: event?.type, code: SvcError.isInstance(error) ? error.code : 'internal' }),
      ...(crashAt ? { crashAt } : {}),
    });
    const stopNotifying = domain.events.onAppend(() => eventWorker.notify());
    // An execution that ends or a status that changes inside this service (no request of a page
    // made it) moves the task on the board: the pages hear it as a change of `tasks`.
    const stopPublishing = domain.events.onAppend(() => web.live.publish('tasks'));
    const invoker = new OperationInvoker({ registry, services: async () => services, terminals, caller: { via: 'http' } });
    const app = createHttpApp({ invoker, domain, terminals, connections, extensions: services.extensions, logger, token, hostVersion: HOST_VERSION, web });
    // MCP over Streamable HTTP at /mcp, for clients holding a token of `svc mcp token create`.
    let listening = port;
    const mcp = new McpHttpEndpoint({ services, terminals, operations: registry.list(), version: HOST_VERSION, port: () => listening, ...mcpSessions });
    const http = await startHttpServer(app, port, [mcp]);
    listening = http.port;
    serverFile.publish({ ...identity, url: http.url, port: http.port });
    eventWorker.start();
    worktreeWatcher.start();
    // Once it listens: a worker thread for each provider that serves calls (bounded; released when idle).
    const warmed = services.extensions.warmServing();
    logger.info('service started', {
      url: http.url,
      recoveredExecutions: recovery.interrupted.length,
      killedLeftovers: recovery.killed.length,
      reattachedTerminals: recovery.reattach.length,
      endedWhileAway: recovery.endedAway.length,
      providersStartedAhead: warmed.length,
    });
    let closing: Promise<void> | undefined;
    return {
      url: http.url,
      port: http.port,
      services,
      terminals,
      recovery,
      loginUrl: () => `${http.url}/login?code=${web.sessions.mintLoginCode()}`,
      mcpSessionCount: () => mcp.sessionCount,
      close: (closeOptions = {}) =>
        (closing ??= (async () => {
          web.live.close();
          stopNotifying();
          stopPublishing();
          await eventWorker.stop();
          await worktreeWatcher.stop();
          for (const plugin of running) await plugin.stop();
          await mcp.close();
          await terminals.close(closeOptions);
          // A start the shutdown waited for answers its request before the connections are closed.
          await new Promise((resolve) => setImmediate(resolve));
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

/** Removes `$SVC_HOME/runs/*` except the folders of terminals still running. */
function removeRunFolders(svcHome: string, keep: Set<string | undefined>): void {
  const runs = join(svcHome, 'runs');
  let names: string[];
  try {
    names = readdirSync(runs);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(runs, name);
    if (!keep.has(path)) rmSync(path, { recursive: true, force: true });
  }
}

function eventPollMs(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_EVENT_POLL_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new SvcError({ code: 'invalid_settings', message: 'SVC_EVENT_POLL_MS must be a positive whole number of milliseconds' });
  return value;
}

function resolvePort(explicit: number | undefined, fromEnv: string | undefined): number {
  const raw = explicit ?? (fromEnv !== undefined && fromEnv.trim() !== '' ? Number(fromEnv) : DEFAULT_PORT);
  if (!Number.isInteger(raw) || raw < 0 || raw > 65535) {
    throw new SvcError({ code: 'invalid_settings', message: 'SVC_PORT (or --port) must be an integer from 0 to 65535 (0 picks a free port)' });
  }
  return raw;
}
