// The extension lifecycle and every call into a provider, as users reach them from the CLI and
// the HTTP API: register, enable after confirming permissions, disable, doctor, and run calls.
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type {
  CliQueryResult,
  CliStreamEvent,
  ConfigSchema,
  Manifest,
  ModelInfo,
  PlatformInfo,
  QueryRequest,
  SessionProcess,
  SessionRequest,
} from '@svc-org/ai-sdk';
import { CliQueryResultSchema, ModelInfoSchema, SessionProcessSchema, SvcError, resultToEvents } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { ConnectionRecord, ConnectionStore } from '../connections/index.js';
import { validateProviderConfig, sensitiveKeysOf } from '../connections/index.js';
import type { Logger } from '../logging/index.js';
import { checkManifest, runPreflight, type PreflightOptions, type PreflightReport } from './preflight/index.js';
import { buildPermissionPrompt, type PermissionPrompt } from './permission-prompt.js';
import type { ExtensionRecord, ExtensionRegistry } from './registry/index.js';
import type { CallOptions, ExtensionRuntime, LoadableExtension } from './runtime/index.js';
import { builtinProviderDirs } from './builtin-providers.js';
import { createCachedCliProbe } from './cached-cli-probe.js';

export interface ExtensionServiceOptions {
  registry: ExtensionRegistry;
  runtime: ExtensionRuntime;
  connections: ConnectionStore;
  logger: Logger;
  platform: PlatformInfo;
  env?: NodeJS.ProcessEnv;
  probeTimeoutMs?: number;
}

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

export class ExtensionService {
  private readonly env: NodeJS.ProcessEnv;
  private readonly cachedProbe = createCachedCliProbe();

  constructor(private readonly options: ExtensionServiceOptions) {
    this.env = options.env ?? process.env;
  }

  get registry(): ExtensionRegistry {
    return this.options.registry;
  }

  /** Makes sure each official provider shipped with the service has a (disabled) registration. */
  async syncBuiltins(dirs = builtinProviderDirs()): Promise<void> {
    for (const dir of dirs) {
      // Only the manifest is read here; the full preflight runs when the provider is enabled or loaded.
      const result = await checkManifest(dir);
      if (!result.ok) {
        this.options.logger.warn('built-in provider has an invalid manifest', { dir, code: result.code });
        continue;
      }
      const { pkg } = result;
      const existing = this.registry.find(pkg.svc.id);
      if (!existing) {
        this.registry.add({ id: pkg.svc.id, source: 'builtin', path: dir, version: pkg.version, displayName: pkg.svc.display.name });
      } else if (existing.source === 'builtin' && (existing.path !== dir || existing.version !== pkg.version)) {
        this.registry.updateSource(existing.id, { path: dir, version: pkg.version, displayName: pkg.svc.display.name });
      }
    }
  }

  list(): ExtensionRecord[] {
    return this.registry.list();
  }

  /** Developer mode: registers a built provider in place. Nothing is copied and nothing of it runs. */
  async devAdd(dir: string): Promise<{ record: ExtensionRecord; report: PreflightReport }> {
    if (!isAbsolute(dir)) {
      throw new SvcError({ code: 'invalid_request', message: `the provider folder must be an absolute path (got "${dir}")` });
    }
    const folder = resolve(dir);
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw new SvcError({ code: 'dev_folder_missing', message: `${folder} is not a folder` });
    const report = await runPreflight(folder, { ...this.preflightOptions(), mode: 'all' });
    const manifestCheck = report.checks.find((check) => check.check === 'manifest');
    if (!report.manifest || !report.pkg || !manifestCheck?.ok) {
      const failure = manifestCheck && !manifestCheck.ok ? manifestCheck : undefined;
      throw new SvcError({
        code: failure?.code ?? 'manifest_invalid',
        message: `cannot register ${folder}: ${failure?.message ?? 'its manifest is invalid'}`,
        details: failure ? { fix: failure.fix } : undefined,
      });
    }
    const record = this.registry.add({
      id: report.manifest.id,
      source: 'dev',
      path: folder,
      version: report.pkg.version,
      displayName: report.manifest.display.name,
    });
    this.options.logger.info('developer extension registered', { id: record.id, path: folder });
    return { record, report };
  }

  async devRemove(id: string): Promise<void> {
    const record = this.registry.get(id);
    if (record.source !== 'dev') {
      throw new SvcError({ code: 'not_a_dev_registration', message: `${id} is a ${record.source} extension; only developer registrations can be removed with \`ext dev remove\`` });
    }
    await this.options.runtime.unload(id);
    this.registry.remove(id);
  }

  /**
   * Runs preflight, then asks `confirm` with the permissions the manifest requests. Only the exact
   * set confirmed is granted. Resolves to the record (enabled) or throws `confirmation_declined`.
   * A catalog update staged for confirmation is what gets checked and asked about; confirming it
   * switches to it in one transaction (declining leaves the current version serving).
   */
  async enable(id: string, confirm: (prompt: PermissionPrompt) => Promise<boolean>): Promise<ExtensionRecord> {
    const record = this.registry.get(id);
    const { prompt, permissions } = await this.review(record, true);
    const confirmed = await confirm(prompt);
    if (!confirmed) throw new SvcError({ code: 'confirmation_declined', message: `the permissions of ${id} were not confirmed; it stays ${record.state}` });
    const enabled = record.pendingVersion
      ? this.registry.versions.confirmPending(id, record.pendingVersion, permissions, prompt.displayName)
      : this.registry.grantAndEnable(id, permissions);
    this.options.logger.info('extension enabled', { id, version: enabled.version, permissions: enabled.grantedPermissions });
    return enabled;
  }

  /** What `enable` would ask the user to confirm (the staged update's permissions when one waits); changes nothing. */
  async permissionPrompt(id: string): Promise<PermissionPrompt> {
    return (await this.review(this.registry.get(id), false)).prompt;
  }

  private async review(record: ExtensionRecord, markBroken: boolean): Promise<{ prompt: PermissionPrompt; permissions: string[] }> {
    const { id } = record;
    const pending = record.pendingVersion ? this.registry.versions.get(id, record.pendingVersion) : undefined;
    const report = await runPreflight(pending?.path ?? record.path, {
      ...this.preflightOptions(),
      ...(pending ? { expected: { id, version: pending.version } } : {}),
      mode: 'stop-at-first-failure',
    });
    if (!report.ok || !report.manifest || !report.pkg) {
      const failure = report.checks.find((check) => !check.ok);
      const code = failure && !failure.ok ? failure.code : 'preflight_failed';
      const message = failure && !failure.ok ? failure.message : 'preflight failed';
      // A staged update that fails does not break the version that serves.
      if (!pending && markBroken) this.registry.setState(id, 'broken', { code, message });
      const what = pending ? `the update of ${id} to ${pending.version}` : id;
      throw new SvcError({ code, message: `${what} cannot be enabled: ${message}`, details: failure && !failure.ok ? { check: failure.check, fix: failure.fix } : undefined });
    }
    const prompt = buildPermissionPrompt(id, report.manifest.display.name, report.pkg.version, report.manifest.permissions, record.grantedPermissions);
    if (pending) prompt.currentVersion = record.version;
    return { prompt, permissions: report.manifest.permissions };
  }

  async disable(id: string): Promise<ExtensionRecord> {
    this.registry.get(id);
    await this.options.runtime.unload(id);
    return this.registry.setState(id, 'disabled');
  }

  async doctor(id: string, connectionName?: string): Promise<PreflightReport> {
    const record = this.registry.get(id);
    const connection = connectionName ? this.options.connections.get(connectionName) : undefined;
    return runPreflight(record.path, { ...this.preflightOptions(connection), mode: 'all' });
  }

  /** Preflight on every load (nothing runs before it passes), then the permission gate. */
  async prepare(id: string, options: CallRequestOptions = {}): Promise<CallTarget> {
    const record = this.registry.get(id);
    const connection = options.connection ? this.options.connections.get(options.connection) : undefined;
    if (connection && connection.providerId !== id) {
      throw new SvcError({ code: 'connection_mismatch', message: `connection "${connection.name}" uses ${connection.providerId}, not ${id}` });
    }
    if (connection && !connection.enabled) throw new SvcError({ code: 'connection_disabled', message: `connection "${connection.name}" is disabled` });
    // A staged update waiting for confirmation leaves the current version serving under its grant.
    const serving = record.state === 'enabled' || (record.state === 'needs-confirmation' && record.pendingVersion !== undefined);
    if (!serving) {
      const code = record.state === 'needs-confirmation' ? 'extension_needs_confirmation' : record.state === 'broken' ? 'extension_broken' : 'extension_disabled';
      throw new SvcError({
        code,
        message: `${id} is ${record.state}${record.error ? ` (${record.error.code})` : ''}; run \`svc ext enable ${id}\``,
      });
    }
    const report = await runPreflight(record.path, { ...this.preflightOptions(connection), probe: this.cachedProbe, mode: 'stop-at-first-failure' });
    if (!report.ok || !report.manifest || !report.entryPath || !report.cli) {
      const failure = report.checks.find((check) => !check.ok);
      const code = failure && !failure.ok ? failure.code : 'preflight_failed';
      const message = failure && !failure.ok ? failure.message : 'preflight failed';
      // A missing CLI is the user's environment, not a broken extension: report without changing state.
      if (!failure || failure.check !== 'cli-dependency') this.registry.setState(id, 'broken', { code, message });
      throw new SvcError({ code, message: `${id}: ${message}`, details: failure && !failure.ok ? { check: failure.check, fix: failure.fix } : undefined });
    }
    const granted = new Set(record.grantedPermissions);
    const missing = report.manifest.permissions.filter((permission) => !granted.has(permission));
    if (missing.length > 0) {
      this.registry.setState(id, 'needs-confirmation', { code: 'permissions_changed', message: `now requests ${missing.join(', ')}` });
      throw new SvcError({
        code: 'permissions_changed',
        message: `${id} now requests permissions that were not confirmed (${missing.join(', ')}); run \`svc ext enable ${id}\` to review them`,
        details: { missing },
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
      cli: { command: report.cli.command, version: report.cli.version },
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
        const result = CliQueryResultSchema.parse(await runtime.call(target.loadable, 'generate', [withBase], target.callOptions));
        yield* resultToEvents(result);
      } catch (error) {
        const data = SvcError.hasCode(error) ? error : { code: 'plugin_error', message: String(error) };
        yield { type: 'error', code: data.code, message: data.message } as const;
        yield { type: 'finish', finishReason: data.code === 'cancelled' ? 'cancelled' : 'error' } as const;
      }
    })();
  }

  async generate(target: CallTarget, request: QueryRequest): Promise<CliQueryResult> {
    if (!target.manifest.capabilities.query.generate) throw this.unsupported(target, 'generate');
    const value = await this.options.runtime.call(target.loadable, 'generate', [this.applyBaseArgs(target, request)], target.callOptions);
    return parseOrThrow(CliQueryResultSchema, value, 'generate() returned an invalid result');
  }

  async models(target: CallTarget): Promise<ModelInfo[]> {
    if (!target.manifest.capabilities.models) throw this.unsupported(target, 'model listing');
    const value = await this.options.runtime.call(target.loadable, 'models', [], target.callOptions);
    return parseOrThrow(z.array(ModelInfoSchema), value, 'models() returned an invalid list');
  }

  /** Validated at the edge: a structured process description, never a shell command string. */
  async buildSessionProcess(target: CallTarget, request: SessionRequest): Promise<z.output<typeof SessionProcessSchema>> {
    const sessions = target.manifest.capabilities.sessions;
    if (request.mode === 'fresh' && !sessions.fresh) throw this.unsupported(target, 'fresh sessions');
    if (request.mode === 'resume' && !sessions.resume) throw this.unsupported(target, 'resumed sessions');
    const value = await this.options.runtime.call(
      target.loadable,
      'buildSessionProcess',
      [{ ...request, baseArgs: [...(target.connection?.baseArgs ?? []), ...(request.baseArgs ?? [])] }],
      target.callOptions,
    );
    if (typeof value === 'string') {
      throw new SvcError({ code: 'invalid_session_process', message: 'buildSessionProcess() returned a shell command string; it must return { command, args, cwd, envPatch }' });
    }
    return parseOrThrow(SessionProcessSchema, value, 'buildSessionProcess() returned an invalid process description', 'invalid_session_process');
  }

  /**
   * An integration call (mcp / hooks / skills): the provider must declare the capability, and the
   * user must have granted its permission; only inside such a call may the adapter touch the CLI's
   * configuration files (the Host Context files API).
   */
  async integration(
    target: CallTarget,
    kind: IntegrationKind,
    operation: 'inspect' | 'install' | 'uninstall',
    args: unknown[],
  ): Promise<unknown> {
    if (!target.manifest.capabilities.integrations?.[kind]) throw this.unsupported(target, `${kind} integration`);
    const permission = `integration:${kind}`;
    if (!target.loadable.granted.has(permission)) {
      throw new SvcError({
        code: 'permission_denied',
        message: `${target.loadable.id} has not been granted "${permission}"`,
        pluginId: target.loadable.id,
        details: { permission },
      });
    }
    return this.options.runtime.call(target.loadable, `${kind}.${operation}`, args, target.callOptions);
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

  sensitiveKeys(schema: ConfigSchema | undefined): Set<string> {
    return sensitiveKeysOf(schema);
  }

  private unsupported(target: CallTarget, what: string): SvcError {
    return new SvcError({ code: 'capability_unsupported', message: `${target.loadable.id} does not support ${what}`, pluginId: target.loadable.id });
  }

  preflightOptions(connection?: ConnectionRecord): Omit<PreflightOptions, 'mode'> {
    return {
      hostVersion: this.options.platform.hostVersion,
      nodeVersion: process.versions.node,
      platform: this.options.platform.os,
      homeDir: this.options.platform.homeDir,
      env: { ...this.env },
      commandOverride: connection?.commandOverride,
      probeTimeoutMs: this.options.probeTimeoutMs,
    };
  }
}

function parseOrThrow<T extends z.ZodTypeAny>(schema: T, value: unknown, message: string, code = 'plugin_invalid_result'): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new SvcError({ code, message: `${message}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}` });
  }
  return parsed.data;
}
