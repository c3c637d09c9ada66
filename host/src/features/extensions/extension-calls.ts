// Every call into a provider: preflight on each load, the permission gate, the connection applied,
// then queries, models, session processes and integrations through the runtime.
import { stat } from 'node:fs/promises';
import type {
  AdapterMethodArgs,
  AdapterMethodResult,
  CliQueryResult,
  CliStreamEvent,
  IntegrationMethodName,
  ConfigSchema,
  Manifest,
  ModelInfo,
  QueryRequest,
  SessionRequest,
} from '@svc-org/ai-sdk';
import { AdapterMethods, SvcError, resultToEvents } from '@svc-org/ai-sdk';
import type { ConnectionRecord, ConnectionStore } from '../connections/index.js';
import { validateProviderConfig } from '../connections/index.js';
import type { Logger } from '../../platform/logging/index.js';
import { computeTreeDigest, runPreflight } from './preflight/index.js';
import type { ExtensionRegistry } from './registry/index.js';
import { errorEvent, type CallOptions, type ExtensionRuntime, type LoadableExtension } from './runtime/index.js';
import { effectiveIsolation } from './effective-isolation.js';
import type { HostPreflight } from './host-preflight.js';
import { isConfirmedProbe, isServing, mayProbe } from './provider-serving.js';
import { permissionsChanged } from './permissions-changed.js';
import { describeProbe, probeFingerprint } from './probe-fingerprint.js';
import { gateSessionProcess, requireSessionPermission, type GatedSessionProcess } from '../../platform/processes/index.js';
import type { ProbeFunction } from './preflight/index.js';

/** A prepared call target: preflight passed, permissions confirmed, connection applied. */
export interface CallTarget {
  loadable: LoadableExtension;
  manifest: Manifest;
  configSchema?: ConfigSchema;
  connection?: ConnectionRecord;
  callOptions: CallOptions;
}

export type IntegrationKind = 'mcp' | 'hooks' | 'skills';

export interface CallRequestOptions {
  connection?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  onSpawn?: (pid: number, command: string) => void;
}

export interface ExtensionCallsOptions {
  registry: ExtensionRegistry;
  runtime: ExtensionRuntime;
  connections: ConnectionStore;
  logger: Logger;
  preflight: HostPreflight;
  /** The probe calls share, so a burst of calls runs the CLI's version probe once. */
  cachedProbe: ProbeFunction;
}

export class ExtensionCalls {
  constructor(private readonly options: ExtensionCallsOptions) {}

  /** Preflight on every load (nothing runs before it passes), then the permission gate. */
  // long: the load gate in the order it must run (preflight, tree digest, CLI probe, permission grant); each step's comment says why it is where it is
  async prepare(id: string, options: CallRequestOptions = {}): Promise<CallTarget> {
    const record = this.options.registry.get(id);
    const connection = options.connection ? this.options.connections.get(options.connection) : undefined;
    if (connection && connection.providerId !== id) {
      throw new SvcError({ code: 'connection_mismatch', message: `connection "${connection.name}" uses ${connection.providerId}, not ${id}` });
    }
    if (connection && !connection.enabled) throw new SvcError({ code: 'connection_disabled', message: `connection "${connection.name}" is disabled` });
    // A staged update waiting for confirmation leaves the current version serving under its grant; a
    // provider broken only by its CLI is tried again (the person may have installed the right one since).
    if (!isServing(record, true)) {
      const code = record.state === 'needs-confirmation' ? 'extension_needs_confirmation' : record.state === 'broken' ? 'extension_broken' : 'extension_disabled';
      throw new SvcError({
        code,
        message: `${id} is ${record.state}${record.error ? ` (${record.error.code})` : ''}; run \`svc ext enable ${id}\``,
      });
    }
    // Its worker thread starts while preflight runs; no provider code loads before preflight passes.
    // The call follows: the thread is given no start task to answer first.
    void this.options.runtime.warm(id, effectiveIsolation(record), false);
    const integrity = this.options.preflight.integrityOf(record);
    const report = await runPreflight(record.path, {
      ...this.options.preflight.optionsFor(connection),
      ...integrity,
      probe: this.options.cachedProbe,
      cliProbe: mayProbe(record) ? 'run' : 'resolve-only',
      probeConfirmed: (manifest) => isConfirmedProbe(record, manifest),
      mode: 'stop-at-first-failure',
    });
    if (!report.ok || !report.manifest || !report.entryPath || !report.cli) {
      const failure = report.checks.find((check) => !check.ok);
      const code = failure && !failure.ok ? failure.code : 'preflight_failed';
      const message = failure && !failure.ok ? failure.message : 'preflight failed';
      // A missing CLI is the user's environment, not a broken extension: report without changing state.
      if (!failure || failure.check !== 'cli-dependency') this.options.registry.setState(id, 'broken', { code, message });
      throw new SvcError({ code, message: `${id}: ${message}`, details: failure && !failure.ok ? { check: failure.check, fix: failure.fix } : undefined });
    }
    if (record.source === 'catalog' && integrity.expectedTreeDigest === undefined) {
      // Installed before tree digests were kept: what is there now becomes the reference.
      this.options.registry.versions.recordTreeDigest(id, record.version, await computeTreeDigest(record.path));
    }
    if (record.state === 'broken') {
      this.options.registry.setState(id, 'enabled');
      this.options.logger.info('extension recovered: its CLI answers again', { id, cli: report.cli.command });
    }
    const granted = new Set(record.grantedPermissions);
    const missing = report.manifest.permissions.filter((permission) => !granted.has(permission));
    if (missing.length > 0) {
      this.options.registry.setState(id, 'needs-confirmation', permissionsChanged(missing));
      throw new SvcError({
        code: 'permissions_changed',
        message: `${id} now requests permissions that were not confirmed (${missing.join(', ')}); run \`svc ext enable ${id}\` to review them`,
        details: { missing },
      });
    }
    // The probe that runs is the probe that was confirmed: another one waits for the person, like a permission.
    const probe = probeFingerprint(report.manifest);
    if (record.confirmedProbe === undefined) this.options.registry.recordConfirmedProbe(id, probe);
    else if (record.confirmedProbe !== probe) {
      const message = `its CLI probe changed from \`${describeProbe(record.confirmedProbe)}\` to \`${describeProbe(probe)}\``;
      this.options.registry.setState(id, 'needs-confirmation', { code: 'probe_changed', message });
      throw new SvcError({
        code: 'probe_changed',
        message: `${id}: ${message}, which was not confirmed; run \`svc ext enable ${id}\` to review it`,
        details: { confirmed: describeProbe(record.confirmedProbe), requested: describeProbe(probe) },
      });
    }
    // Effective grant: what was confirmed AND what the manifest still asks for.
    const effective = new Set(report.manifest.permissions.filter((permission) => granted.has(permission)));
    const entryStat = await stat(report.entryPath);
    const loadable: LoadableExtension = {
      id,
      entryPath: report.entryPath,
      revision: `${report.entryPath}:${entryStat.mtimeMs}:${entryStat.size}`,
      granted: effective,
      isolation: effectiveIsolation(record),
      packageDir: record.path,
      integrationFiles: report.manifest.integrationFiles,
      cliName: report.manifest.command.default,
      // Without `process:spawn` the probe never runs and the version stays unknown ('').
      cli: { command: report.cli.command, version: report.cli.version ?? '' },
    };
    const callOptions: CallOptions = {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      onSpawn: options.onSpawn,
      connectionEnv: connection?.env,
      loadConfig: async () => this.configFor(connection, report.configSchema),
    };
    if (connection) this.registerSecrets(connection);
    return { loadable, manifest: report.manifest, configSchema: report.configSchema, connection, callOptions };
  }

  stream(target: CallTarget, request: QueryRequest): AsyncIterable<CliStreamEvent> {
    const { manifest } = target;
    const withBase = this.applyBaseArgs(target, request);
    if (manifest.capabilities.query.stream) return this.options.runtime.stream(target.loadable, withBase, target.callOptions);
    if (!manifest.capabilities.query.generate) throw this.unsupported(target, 'queries');
    // A provider without a native stream: run generate and replay its result as events.
    const runtime = this.options.runtime;
    return (async function* () {
      try {
        const result = await runtime.call(target.loadable, 'generate', [withBase], target.callOptions);
        yield* resultToEvents(result);
      } catch (error) {
        const data = SvcError.hasCode(error) ? error : { code: 'plugin_error', message: String(error) };
        yield errorEvent(data);
        yield { type: 'finish', finishReason: data.code === 'cancelled' ? 'cancelled' : 'error' } as const;
      }
    })();
  }

  async generate(target: CallTarget, request: QueryRequest): Promise<CliQueryResult> {
    if (!target.manifest.capabilities.query.generate) throw this.unsupported(target, 'generate');
    return this.options.runtime.call(target.loadable, 'generate', [this.applyBaseArgs(target, request)], target.callOptions);
  }

  async models(target: CallTarget): Promise<ModelInfo[]> {
    if (!target.manifest.capabilities.models) throw this.unsupported(target, 'model listing');
    return this.options.runtime.call(target.loadable, 'models', [], target.callOptions);
  }

  /**
   * The session process to start, through the session gate: refused before the provider is asked
   * when it may not spawn; then its answer (a structured description, never a shell command string)
   * may name only the confirmed CLI and `request.cwd`, and its environment patch is filtered.
   */
  async buildSessionProcess(target: CallTarget, request: SessionRequest): Promise<GatedSessionProcess> {
    const sessions = target.manifest.capabilities.sessions;
    if (request.mode === 'fresh' && !sessions.fresh) throw this.unsupported(target, 'fresh sessions');
    if (request.mode === 'resume' && !sessions.resume) throw this.unsupported(target, 'resumed sessions');
    const grant = { providerId: target.loadable.id, granted: target.loadable.granted, cli: target.loadable.cli.command, cwd: request.cwd };
    requireSessionPermission(grant);
    const description = await this.options.runtime.call(
      target.loadable,
      'buildSessionProcess',
      [{ ...request, baseArgs: [...(target.connection?.baseArgs ?? []), ...(request.baseArgs ?? [])] }],
      target.callOptions,
    );
    return gateSessionProcess(grant, description, this.options.logger);
  }

  /**
   * An integration call (mcp / hooks / skills): the provider must declare the capability, and the
   * user must have granted its permission; only inside such a call may the adapter touch the CLI's
   * configuration files (the Host Context files API).
   */
  async integration<M extends IntegrationMethodName>(target: CallTarget, method: M, args: AdapterMethodArgs<M>): Promise<AdapterMethodResult<M>> {
    const kind = method.slice(0, method.indexOf('.')) as IntegrationKind;
    if (!target.manifest.capabilities.integrations?.[kind]) throw this.unsupported(target, `${kind} integration`);
    const permission = AdapterMethods[method].permission;
    if (permission && !target.loadable.granted.has(permission)) {
      throw new SvcError({
        code: 'permission_denied',
        message: `${target.loadable.id} has not been granted "${permission}"`,
        pluginId: target.loadable.id,
        details: { permission },
      });
    }
    return this.options.runtime.call(target.loadable, method, args, target.callOptions);
  }

  private applyBaseArgs(target: CallTarget, request: QueryRequest): QueryRequest {
    const base = target.connection?.baseArgs ?? [];
    return base.length > 0 ? { ...request, baseArgs: [...base, ...(request.baseArgs ?? [])] } : request;
  }

  private async configFor(connection: ConnectionRecord | undefined, schema: ConfigSchema | undefined): Promise<Record<string, unknown>> {
    const values = connection ? { ...connection.config, ...this.options.connections.secretsOf(connection.id) } : {};
    return validateProviderConfig(schema, values);
  }

  /** The connection's sensitive values are redacted from every log line and error from now on. */
  private registerSecrets(connection: ConnectionRecord): void {
    for (const value of this.options.connections.secretValuesOf(connection)) this.options.logger.redactor.addSecret(value);
  }

  private unsupported(target: CallTarget, what: string): SvcError {
    return new SvcError({ code: 'capability_unsupported', message: `${target.loadable.id} does not support ${what}`, pluginId: target.loadable.id });
  }
}
