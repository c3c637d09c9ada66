// The extension lifecycle and every call into a provider, as users reach them from the CLI and
// the HTTP API: register, enable after confirming permissions, disable, doctor, and run calls.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type {
  AdapterMethodArgs,
  AdapterMethodResult,
  CliQueryResult,
  CliStreamEvent,
  IntegrationMethodName,
  ConfigSchema,
  Manifest,
  ModelInfo,
  PlatformInfo,
  QueryRequest,
  SessionProcess,
  SessionRequest,
} from '@svc-org/ai-sdk';
import { AdapterMethods, SvcError, resultToEvents } from '@svc-org/ai-sdk';
import type { ConnectionRecord, ConnectionStore } from '../connections/index.js';
import { validateProviderConfig, sensitiveKeysOf } from '../connections/index.js';
import type { Logger } from '../logging/index.js';
import { scrubbedWorkerEnv } from '../processes/child-env.js';
import { checkManifest, computeTreeDigest, PreflightCodes, runPreflight, type CheckFailure, type PreflightOptions, type PreflightReport } from './preflight/index.js';
import type { ExtensionDescription } from './extension-description.js';
import { buildPermissionPrompt, type PermissionPrompt } from './permission-prompt.js';
import { describeIsolation } from './describe-isolation.js';
import type { ExtensionCrash, ExtensionRecord, ExtensionRegistry } from './registry/index.js';
import {
  isolationEnforcement,
  probeIsolation,
  type CallOptions,
  type ExtensionRuntime,
  type IsolationEnforcement,
  type IsolationMode,
  type LoadableExtension,
  type ProviderCrash,
} from './runtime/index.js';
import { effectiveIsolation } from './effective-isolation.js';
import { builtinProviderDirs } from './builtin-providers.js';
import { createCachedCliProbe } from './cached-cli-probe.js';
import { describeProbe, probeFingerprint } from './probe-fingerprint.js';

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
    options.runtime.watchCrashes((crash) => void this.recordCrash(crash));
  }

  /**
   * A call crashed its worker or process: kept for `svc ext doctor`; the one that makes
   * `runtime.crashLoopCrashes` within `runtime.crashLoopWindowMs` quarantines the provider
   * (`broken`, `crash_loop`) until the person enables it again. Other providers are untouched.
   */
  async recordCrash(crash: ProviderCrash): Promise<void> {
    const record = this.registry.find(crash.pluginId);
    if (!record) return;
    const now = new Date();
    this.registry.crashes.record(record.id, { at: now.toISOString(), method: crash.method, isolation: effectiveIsolation(record), reason: crash.reason });
    const { crashLoopCrashes, crashLoopWindowMs } = this.options.runtime.limitsInEffect;
    const recent = this.registry.crashes.countSince(record.id, new Date(now.getTime() - crashLoopWindowMs).toISOString());
    if (recent < crashLoopCrashes || !isServing(record, true)) return;
    this.registry.setState(record.id, 'broken', {
      code: 'crash_loop',
      message: `its calls crashed ${recent} times in ${Math.round(crashLoopWindowMs / 1000)} s; quarantined until enabled again (see svc ext doctor ${record.id})`,
    });
    this.options.logger.error('provider quarantined: crash loop', { id: record.id, crashes: recent, windowMs: crashLoopWindowMs });
    await this.options.runtime.unload(record.id);
  }

  /** The crashes `svc ext doctor` lists, newest first. */
  crashes(id: string): ExtensionCrash[] {
    this.registry.get(id);
    return this.registry.crashes.list(id);
  }

  get registry(): ExtensionRegistry {
    return this.options.registry;
  }

  /** Makes sure each official provider shipped with the service has a (disabled) registration. */
  async syncBuiltins(dirs = builtinProviderDirs()): Promise<void> {
    for (const dir of dirs) {
      // Every `svc` command opens the services: a registration that already names this folder and
      // version is left as it is, without validating the whole manifest again.
      if (await this.registeredAsIs(dir)) continue;
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

  /** The built-in provider in `dir` is registered from that folder at the version its package.json names. */
  private async registeredAsIs(dir: string): Promise<boolean> {
    try {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version?: unknown; svc?: { id?: unknown } };
      if (typeof pkg.svc?.id !== 'string' || typeof pkg.version !== 'string') return false;
      const existing = this.registry.find(pkg.svc.id);
      return existing?.source === 'builtin' && existing.path === dir && existing.version === pkg.version;
    } catch {
      return false;
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
   * Runs preflight (which starts nothing: the CLI is only looked for), then asks `confirm` with the
   * permissions the manifest requests and the exact CLI probe that will run. Only the exact set
   * confirmed is granted. After the grant, a provider granted `process:spawn` has its CLI probed; a
   * probe that fails leaves it `broken` with the probe's code until a later call finds the CLI right.
   * Resolves to the record (enabled) or throws `confirmation_declined`.
   * A catalog update staged for confirmation is what gets checked and asked about; confirming it
   * switches to it in one transaction (declining leaves the current version serving).
   */
  async enable(
    id: string,
    confirm: (prompt: PermissionPrompt) => Promise<boolean>,
    options: { connection?: string; isolation?: IsolationMode } = {},
  ): Promise<ExtensionRecord> {
    let record = this.registry.get(id);
    // The mode is part of what the person confirms: the prompt shows what the chosen one enforces.
    if (options.isolation) record = { ...record, isolation: options.isolation };
    const connection = this.connectionFor(id, options.connection);
    const { prompt, permissions, probe } = await this.review(record, connection);
    const confirmed = await confirm(prompt);
    if (!confirmed) throw new SvcError({ code: 'confirmation_declined', message: `the permissions of ${id} were not confirmed; it stays ${record.state}` });
    // Enabling again ends a quarantine: the crashes before it stay listed but no longer count.
    this.registry.crashes.forgive(id);
    if (options.isolation && options.isolation !== this.registry.get(id).isolation) {
      this.registry.setIsolation(id, options.isolation);
      // Calls from now on run in the new mode.
      await this.options.runtime.unload(id);
    }
    const enabled = record.pendingVersion
      ? this.registry.versions.confirmPending(id, record.pendingVersion, permissions, prompt.displayName, probe)
      : this.registry.grantAndEnable(id, permissions, probe);
    this.options.logger.info('extension enabled', { id, version: enabled.version, permissions: enabled.grantedPermissions });
    if (!enabled.grantedPermissions.includes(PROBE_PERMISSION)) return enabled;
    // Only now, confirmed and granted, does anything the manifest names run: the CLI's version probe.
    const report = await runPreflight(enabled.path, {
      ...this.preflightOptions(connection),
      ...this.integrityOf(enabled),
      cliProbe: 'run',
      probeConfirmed: (manifest) => isConfirmedProbe(enabled, manifest),
      mode: 'stop-at-first-failure',
    });
    const failure = report.checks.find((check): check is CheckFailure => !check.ok);
    if (failure) {
      this.registry.setState(id, 'broken', { code: failure.code, message: failure.message });
      throw new SvcError({
        code: failure.code,
        message: `${id} was enabled, but ${failure.message}; it stays broken until its next call finds the CLI working`,
        details: { check: failure.check, fix: failure.fix },
      });
    }
    return enabled;
  }

  /**
   * What a person wants to know before enabling (`svc ext show`): the permissions the manifest
   * requests, the CLI it would run and the probe, and its compatibility with this host. Runs every
   * check but starts nothing and changes no state.
   */
  async show(id: string, connectionName?: string): Promise<ExtensionDescription> {
    const record = this.registry.get(id);
    const connection = this.connectionFor(id, connectionName);
    const report = await runPreflight(record.path, { ...this.preflightOptions(connection), ...this.integrityOf(record), cliProbe: 'resolve-only', mode: 'all' });
    const manifest = report.manifest;
    const isolation = this.isolationOf(record);
    const cliFailure = report.checks.find((check): check is CheckFailure => check.check === 'cli-dependency' && !check.ok);
    return {
      id,
      version: record.version,
      source: record.source,
      state: record.state,
      displayName: record.displayName,
      ...(manifest ? { description: manifest.display.description } : {}),
      requestedPermissions: manifest ? [...new Set(manifest.permissions)].sort() : [],
      grantedPermissions: record.grantedPermissions,
      compatibility: manifest ? { svc: manifest.compatibility.svc, node: manifest.compatibility.node, ...(manifest.compatibility.cli ? { cli: manifest.compatibility.cli } : {}) } : undefined,
      cli: manifest
        ? {
            default: manifest.command.default,
            ...(connection?.commandOverride ? { override: connection.commandOverride } : {}),
            found: report.cli?.command ?? null,
            ...(cliFailure ? { error: { code: cliFailure.code, message: cliFailure.message, fix: cliFailure.fix } } : {}),
            probe: manifest.permissions.includes(PROBE_PERMISSION) ? { args: [...manifest.command.versionArgs], runs: 'after you confirm process:spawn' } : null,
          }
        : undefined,
      checks: report.checks.map((check) => (check.ok ? { check: check.check, ok: true as const } : { check: check.check, ok: false as const, code: check.code, message: check.message, fix: check.fix })),
      isolation,
      notice: describeIsolation(isolation.mode).notice,
    };
  }

  /** What `enable` would ask the user to confirm (the staged update's permissions when one waits); changes nothing and runs nothing. */
  async permissionPrompt(id: string, connectionName?: string, isolation?: IsolationMode): Promise<PermissionPrompt> {
    const record = this.registry.get(id);
    // The mode asked for is part of what the person confirms, as in `enable`.
    return (await this.review(isolation ? { ...record, isolation } : record, this.connectionFor(id, connectionName))).prompt;
  }

  private async review(record: ExtensionRecord, connection: ConnectionRecord | undefined): Promise<{ prompt: PermissionPrompt; permissions: string[]; probe: string }> {
    const { id } = record;
    const pending = record.pendingVersion ? this.registry.versions.get(id, record.pendingVersion) : undefined;
    const report = await runPreflight(pending?.path ?? record.path, {
      ...this.preflightOptions(connection),
      ...(pending ? { expected: { id, version: pending.version }, ...(pending.treeSha256 ? { expectedTreeDigest: pending.treeSha256 } : {}) } : this.integrityOf(record)),
      cliProbe: 'resolve-only',
      mode: 'stop-at-first-failure',
    });
    if (!report.ok || !report.manifest || !report.pkg || !report.cli) {
      const failure = report.checks.find((check) => !check.ok);
      const code = failure && !failure.ok ? failure.code : 'preflight_failed';
      const message = failure && !failure.ok ? failure.message : 'preflight failed';
      // A staged update that fails does not break the version that serves; a CLI that is not there
      // yet is the person's environment, not a broken extension.
      if (!pending && failure && failure.check !== 'cli-dependency') this.registry.setState(id, 'broken', { code, message });
      const what = pending ? `the update of ${id} to ${pending.version}` : id;
      throw new SvcError({ code, message: `${what} cannot be enabled: ${message}`, details: failure && !failure.ok ? { check: failure.check, fix: failure.fix } : undefined });
    }
    const prompt = buildPermissionPrompt(id, report.manifest.display.name, report.pkg.version, report.manifest.permissions, record.grantedPermissions);
    prompt.isolation = this.isolationOf(record);
    prompt.notice = describeIsolation(prompt.isolation.mode).notice;
    if (pending) prompt.currentVersion = record.version;
    prompt.cli = {
      command: report.cli.command,
      source: report.cli.source,
      probe: report.manifest.permissions.includes(PROBE_PERMISSION) ? { command: report.cli.command, args: [...report.manifest.command.versionArgs] } : null,
    };
    const probe = probeFingerprint(report.manifest);
    if (record.confirmedProbe !== undefined && record.confirmedProbe !== probe) prompt.cli.previousProbe = describeProbe(record.confirmedProbe);
    return { prompt, permissions: report.manifest.permissions, probe };
  }

  /** How an extension runs and what that enforces on this machine (`svc ext list`, the HTTP listing, the enable prompt). */
  isolationOf(record: ExtensionRecord): IsolationEnforcement {
    return isolationEnforcement(effectiveIsolation(record), probeIsolation(), this.options.runtime.limitsInEffect.maxOldGenerationSizeMb);
  }

  async disable(id: string): Promise<ExtensionRecord> {
    this.registry.get(id);
    await this.options.runtime.unload(id);
    return this.registry.setState(id, 'disabled');
  }

  /**
   * Every check, for `svc ext doctor`. The CLI's version probe runs only for a provider that serves
   * with `process:spawn` granted (`probed` says whether it ran); for any other, the CLI is only found.
   */
  async doctor(id: string, connectionName?: string): Promise<PreflightReport & { probed: boolean }> {
    const record = this.registry.get(id);
    const connection = this.connectionFor(id, connectionName);
    const probed = this.mayProbe(record);
    let probeRan = probed;
    const report = await runPreflight(record.path, {
      ...this.preflightOptions(connection),
      ...this.integrityOf(record),
      cliProbe: probed ? 'run' : 'resolve-only',
      probeConfirmed: (manifest) => (probeRan = probed && isConfirmedProbe(record, manifest)),
      mode: 'all',
    });
    return { ...report, probed: probeRan };
  }

  /**
   * The installed CLI's version, for `svc ext outdated`: only for a provider whose probe the person
   * consented to (serving, with `process:spawn`); undefined for any other, or when the probe fails.
   */
  async cliVersion(id: string): Promise<string | undefined> {
    const record = this.registry.get(id);
    if (!this.mayProbe(record)) return undefined;
    const report = await runPreflight(record.path, {
      ...this.preflightOptions(),
      ...this.integrityOf(record),
      probe: this.cachedProbe,
      cliProbe: 'run',
      probeConfirmed: (manifest) => isConfirmedProbe(record, manifest),
      mode: 'all',
    });
    return report.cli?.version;
  }

  /**
   * Whether the CLI's version probe may run: the person confirmed a grant that includes `process:spawn`.
   * A staged update waiting for confirmation leaves the current version serving with its confirmed
   * probe (isServing); a provider waiting for confirmation with nothing staged is not serving. Which
   * probe runs is checked against the confirmed one where the preflight runs (probeConfirmed).
   */
  private mayProbe(record: ExtensionRecord): boolean {
    return isServing(record, true) && record.grantedPermissions.includes(PROBE_PERMISSION);
  }

  /** The tree digest recorded at install, for a catalog version; recorded now for one installed before digests were kept. */
  private integrityOf(record: ExtensionRecord): { expectedTreeDigest?: string } {
    if (record.source !== 'catalog') return {};
    const version = this.registry.versions.find(record.id, record.version);
    return version?.treeSha256 ? { expectedTreeDigest: version.treeSha256 } : {};
  }

  private connectionFor(id: string, name: string | undefined): ConnectionRecord | undefined {
    if (name === undefined) return undefined;
    const connection = this.options.connections.get(name);
    if (connection.providerId !== id) {
      throw new SvcError({ code: 'connection_mismatch', message: `connection "${connection.name}" uses ${connection.providerId}, not ${id}` });
    }
    return connection;
  }

  /** Preflight on every load (nothing runs before it passes), then the permission gate. */
  async prepare(id: string, options: CallRequestOptions = {}): Promise<CallTarget> {
    const record = this.registry.get(id);
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
    const integrity = this.integrityOf(record);
    const report = await runPreflight(record.path, {
      ...this.preflightOptions(connection),
      ...integrity,
      probe: this.cachedProbe,
      cliProbe: this.mayProbe(record) ? 'run' : 'resolve-only',
      probeConfirmed: (manifest) => isConfirmedProbe(record, manifest),
      mode: 'stop-at-first-failure',
    });
    if (!report.ok || !report.manifest || !report.entryPath || !report.cli) {
      const failure = report.checks.find((check) => !check.ok);
      const code = failure && !failure.ok ? failure.code : 'preflight_failed';
      const message = failure && !failure.ok ? failure.message : 'preflight failed';
      // A missing CLI is the user's environment, not a broken extension: report without changing state.
      if (!failure || failure.check !== 'cli-dependency') this.registry.setState(id, 'broken', { code, message });
      throw new SvcError({ code, message: `${id}: ${message}`, details: failure && !failure.ok ? { check: failure.check, fix: failure.fix } : undefined });
    }
    if (record.source === 'catalog' && integrity.expectedTreeDigest === undefined) {
      // Installed before tree digests were kept: what is there now becomes the reference.
      this.registry.versions.recordTreeDigest(id, record.version, await computeTreeDigest(record.path));
    }
    if (record.state === 'broken') {
      this.registry.setState(id, 'enabled');
      this.options.logger.info('extension recovered: its CLI answers again', { id, cli: report.cli.command });
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
    // The probe that runs is the probe that was confirmed: another one waits for the person, like a permission.
    const probe = probeFingerprint(report.manifest);
    if (record.confirmedProbe === undefined) this.registry.recordConfirmedProbe(id, probe);
    else if (record.confirmedProbe !== probe) {
      const message = `its CLI probe changed from \`${describeProbe(record.confirmedProbe)}\` to \`${describeProbe(probe)}\``;
      this.registry.setState(id, 'needs-confirmation', { code: 'probe_changed', message });
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
        yield { type: 'error', code: data.code, message: data.message } as const;
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

  /** Validated at the edge: a structured process description, never a shell command string. */
  async buildSessionProcess(target: CallTarget, request: SessionRequest): Promise<AdapterMethodResult<'buildSessionProcess'>> {
    const sessions = target.manifest.capabilities.sessions;
    if (request.mode === 'fresh' && !sessions.fresh) throw this.unsupported(target, 'fresh sessions');
    if (request.mode === 'resume' && !sessions.resume) throw this.unsupported(target, 'resumed sessions');
    return this.options.runtime.call(
      target.loadable,
      'buildSessionProcess',
      [{ ...request, baseArgs: [...(target.connection?.baseArgs ?? []), ...(request.baseArgs ?? [])] }],
      target.callOptions,
    );
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

  sensitiveKeys(schema: ConfigSchema | undefined): Set<string> {
    return sensitiveKeysOf(schema);
  }

  private unsupported(target: CallTarget, what: string): SvcError {
    return new SvcError({ code: 'capability_unsupported', message: `${target.loadable.id} does not support ${what}`, pluginId: target.loadable.id });
  }

  /**
   * The options every preflight of this host starts from. The environment is the worker's scrubbed
   * one (no SVC_* setting, no catalog token): the CLI is looked up on its PATH, and the version probe,
   * when it runs, gets exactly it.
   */
  preflightOptions(connection?: ConnectionRecord): Omit<PreflightOptions, 'mode'> {
    return {
      hostVersion: this.options.platform.hostVersion,
      nodeVersion: process.versions.node,
      platform: this.options.platform.os,
      homeDir: this.options.platform.homeDir,
      env: scrubbedWorkerEnv(this.env),
      commandOverride: connection?.commandOverride,
      probeTimeoutMs: this.options.probeTimeoutMs,
    };
  }
}

const PROBE_PERMISSION = 'process:spawn';

/** The CLI codes a later call may recover from by itself once the CLI is right. */
const CLI_CODES: ReadonlySet<string> = new Set([
  PreflightCodes.cliNotFound,
  PreflightCodes.cliProbeFailed,
  PreflightCodes.cliProbeTimeout,
  PreflightCodes.cliVersionUnreadable,
  PreflightCodes.cliIncompatible,
]);

/**
 * Whether calls are served: enabled, or the current version of an update that waits; with
 * `orCliBroken`, also a provider that is broken only because its CLI failed the probe after enabling.
 */
function isServing(record: ExtensionRecord, orCliBroken = false): boolean {
  if (record.state === 'enabled' || (record.state === 'needs-confirmation' && record.pendingVersion !== undefined)) return true;
  return orCliBroken && record.state === 'broken' && record.error !== undefined && CLI_CODES.has(record.error.code);
}

/** Whether the manifest names the probe the person confirmed (a grant from before probes were kept trusts the one there). */
function isConfirmedProbe(record: ExtensionRecord, manifest: Manifest): boolean {
  return record.confirmedProbe === undefined || record.confirmedProbe === probeFingerprint(manifest);
}
