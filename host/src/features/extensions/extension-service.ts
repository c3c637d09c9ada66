// The extension lifecycle, as users reach it from the CLI and the HTTP API: register, enable after
// confirming permissions, disable, doctor. Calls into a provider (extension-calls.ts) and the crash
// quarantine (crash-quarantine.ts) are reached through this one service.
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
  SessionRequest,
} from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import type { ConnectionRecord, ConnectionStore } from '../connections/index.js';
import { sensitiveKeysOf } from '../connections/index.js';
import type { Logger } from '../../platform/logging/index.js';
import { checkManifest, runPreflight, type CheckFailure, type PreflightOptions, type PreflightReport } from './preflight/index.js';
import { declaredIntegrationFiles } from '@svc-org/extension-format/manifest';
import type { ExtensionDescription } from './extension-description.js';
import { buildPermissionPrompt, describeSessions, type PermissionPrompt } from './permission-prompt.js';
import { describeIsolation } from './describe-isolation.js';
import type { ExtensionCrash, ExtensionRecord, ExtensionRegistry } from './registry/index.js';
import { isolationEnforcement, probeIsolation, readIsolationRecord, type ExtensionRuntime, type IsolationEnforcement, type IsolationMode, type ProviderCrash } from './runtime/index.js';
import { effectiveIsolation } from './effective-isolation.js';
import { builtinProviderDirs } from './builtin-providers.js';
import { createCachedCliProbe } from './cached-cli-probe.js';
import { describeProbe, probeFingerprint } from './probe-fingerprint.js';
import { CrashQuarantine } from './crash-quarantine.js';
import { ExtensionCalls, type CallRequestOptions, type CallTarget } from './extension-calls.js';
import { HostPreflight } from './host-preflight.js';
import { isConfirmedProbe, isServing, mayProbe, PROBE_PERMISSION } from './provider-serving.js';
import { permissionsChanged } from './permissions-changed.js';
import { readDevManifest } from './read-dev-manifest.js';
import type { GatedSessionProcess } from '../../platform/processes/index.js';

export interface ExtensionServiceOptions {
  registry: ExtensionRegistry;
  runtime: ExtensionRuntime;
  connections: ConnectionStore;
  logger: Logger;
  platform: PlatformInfo;
  env?: NodeJS.ProcessEnv;
  probeTimeoutMs?: number;
  /** Where the isolation probe's last answer is recorded (isolation-record.ts); none: a hardened provider is listed as not yet probed until probed live. */
  svcHome?: string;
}

export type { CallTarget, CallRequestOptions, IntegrationKind } from './extension-calls.js';

/** How many providers `svc serve` starts a worker thread for as it starts (warmServing). */
export const WARM_AT_START_LIMIT = 4;

export class ExtensionService {
  private readonly cachedProbe = createCachedCliProbe();
  private readonly preflight: HostPreflight;
  private readonly quarantine: CrashQuarantine;
  private readonly calls: ExtensionCalls;

  constructor(private readonly options: ExtensionServiceOptions) {
    this.preflight = new HostPreflight({ registry: options.registry, platform: options.platform, env: options.env ?? process.env, probeTimeoutMs: options.probeTimeoutMs });
    this.quarantine = new CrashQuarantine(options);
    this.calls = new ExtensionCalls({ ...options, preflight: this.preflight, cachedProbe: this.cachedProbe });
    options.runtime.watchCrashes((crash) => void this.recordCrash(crash));
  }

  /** A call crashed its worker or process: recorded, and a crash loop quarantines the provider. */
  recordCrash(crash: ProviderCrash): Promise<void> {
    return this.quarantine.record(crash);
  }

  /** The crashes `svc ext doctor` lists, newest first. */
  crashes(id: string): ExtensionCrash[] {
    return this.quarantine.list(id);
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

  /** Every registration; a developer registration as its folder says now (syncDev). */
  list(): ExtensionRecord[] {
    return this.registry.list().map((record) => this.syncDev(record));
  }

  /** One registration; a developer registration as its folder says now (syncDev). */
  get(id: string): ExtensionRecord {
    return this.syncDev(this.registry.get(id));
  }

  /**
   * A developer folder is edited in place: the registration takes the version and name its
   * package.json names now, and an enabled provider whose manifest now requests a permission that
   * was not confirmed waits for confirmation, as its next call would find.
   */
  private syncDev(record: ExtensionRecord): ExtensionRecord {
    if (record.source !== 'dev') return record;
    const now = readDevManifest(record.path);
    if (!now) return record;
    let synced = record;
    if (now.version !== record.version || now.displayName !== record.displayName) {
      synced = this.registry.updateSource(record.id, { path: record.path, version: now.version, displayName: now.displayName });
    }
    const missing = now.permissions.filter((permission) => !record.grantedPermissions.includes(permission));
    if (record.state === 'enabled' && missing.length > 0) {
      synced = this.registry.setState(record.id, 'needs-confirmation', permissionsChanged(missing));
    }
    return synced;
  }

  /** Developer mode: registers a built provider in place. Nothing is copied and nothing of it runs. */
  async devAdd(dir: string): Promise<{ record: ExtensionRecord; report: PreflightReport }> {
    if (!isAbsolute(dir)) {
      throw new SvcError({ code: 'invalid_request', message: `the provider folder must be an absolute path (got "${dir}")` });
    }
    const folder = resolve(dir);
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw new SvcError({ code: 'dev_folder_missing', message: `${folder} is not a folder` });
    const report = await runPreflight(folder, { ...this.preflight.optionsFor(), mode: 'all' });
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
    this.quarantine.forgive(id);
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
      ...this.preflight.optionsFor(connection),
      ...this.preflight.integrityOf(enabled),
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
    const record = this.get(id);
    const connection = this.connectionFor(id, connectionName);
    const report = await runPreflight(record.path, { ...this.preflight.optionsFor(connection), ...this.preflight.integrityOf(record), cliProbe: 'resolve-only', mode: 'all' });
    const manifest = report.manifest;
    const isolation = this.isolationOf(record);
    const cliFailure = report.checks.find((check): check is CheckFailure => check.check === 'cli-dependency' && !check.ok);
    const pending = record.pendingVersion ? this.registry.versions.get(id, record.pendingVersion) : undefined;
    // The probe ran (and runs at each load) once the person confirmed it with process:spawn.
    const probeConfirmed = manifest !== undefined && mayProbe(record) && isConfirmedProbe(record, manifest);
    return {
      id,
      version: record.version,
      source: record.source,
      state: record.state,
      displayName: record.displayName,
      ...(manifest ? { description: manifest.display.description } : {}),
      requestedPermissions: manifest ? [...new Set(manifest.permissions)].sort() : [],
      grantedPermissions: record.grantedPermissions,
      ...(record.error ? { error: record.error } : {}),
      ...(pending ? { pending: { version: pending.version, newPermissions: pending.permissions.filter((p) => !record.grantedPermissions.includes(p)).sort() } } : {}),
      compatibility: manifest ? { svc: manifest.compatibility.svc, node: manifest.compatibility.node, ...(manifest.compatibility.cli ? { cli: manifest.compatibility.cli } : {}) } : undefined,
      cli: manifest
        ? {
            default: manifest.command.default,
            ...(connection?.commandOverride ? { override: connection.commandOverride } : {}),
            found: report.cli?.command ?? null,
            ...(cliFailure ? { error: { code: cliFailure.code, message: cliFailure.message, fix: cliFailure.fix } } : {}),
            probe: manifest.permissions.includes(PROBE_PERMISSION)
              ? probeConfirmed
                ? { args: [...manifest.command.versionArgs], confirmed: true, runs: 'as the provider loads; you confirmed process:spawn' }
                : { args: [...manifest.command.versionArgs], confirmed: false, runs: 'only after you confirm process:spawn' }
              : null,
          }
        : undefined,
      integrationFiles: manifest ? declaredIntegrationFiles(manifest) : [],
      ...sessionsLine(manifest, report.cli?.command ?? null),
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
      ...this.preflight.optionsFor(connection),
      ...(pending ? { expected: { id, version: pending.version }, ...(pending.treeSha256 ? { expectedTreeDigest: pending.treeSha256 } : {}) } : this.preflight.integrityOf(record)),
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
    // What the person confirms is what this machine enforces now: probed live.
    prompt.isolation = this.isolationOf(record, 'live');
    prompt.notice = describeIsolation(prompt.isolation.mode).notice;
    if (pending) prompt.currentVersion = record.version;
    prompt.integrationFiles = declaredIntegrationFiles(report.manifest);
    prompt.cli = {
      command: report.cli.command,
      source: report.cli.source,
      probe: report.manifest.permissions.includes(PROBE_PERMISSION) ? { command: report.cli.command, args: [...report.manifest.command.versionArgs] } : null,
    };
    const sessions = describeSessions(report.manifest.capabilities, report.manifest.permissions, report.cli.command);
    if (sessions) prompt.sessions = sessions;
    const probe = probeFingerprint(report.manifest);
    if (record.confirmedProbe !== undefined && record.confirmedProbe !== probe) prompt.cli.previousProbe = describeProbe(record.confirmedProbe);
    else if (prompt.cli.probe && record.confirmedProbe === probe && record.grantedPermissions.includes(PROBE_PERMISSION)) prompt.cli.ranBefore = true;
    return { prompt, permissions: report.manifest.permissions, probe };
  }

  /**
   * How an extension runs and what that enforces on this machine (`svc ext list`, the HTTP listing,
   * the enable prompt). A worker needs no probe; for a hardened provider a listing takes the recorded
   * answer (`recorded`, starting no process) and the enable prompt probes `live`.
   */
  isolationOf(record: ExtensionRecord, probe: 'recorded' | 'live' = 'recorded'): IsolationEnforcement {
    const mode = effectiveIsolation(record);
    const { svcHome } = this.options;
    const answer = mode === 'worker' ? undefined : probe === 'live' ? probeIsolation(svcHome) : svcHome === undefined ? undefined : readIsolationRecord(svcHome);
    return isolationEnforcement(mode, answer, this.options.runtime.limitsInEffect.maxOldGenerationSizeMb);
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
    const probed = mayProbe(record);
    let probeRan = probed;
    const report = await runPreflight(record.path, {
      ...this.preflight.optionsFor(connection),
      ...this.preflight.integrityOf(record),
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
    if (!mayProbe(record)) return undefined;
    const report = await runPreflight(record.path, {
      ...this.preflight.optionsFor(),
      ...this.preflight.integrityOf(record),
      probe: this.cachedProbe,
      cliProbe: 'run',
      probeConfirmed: (manifest) => isConfirmedProbe(record, manifest),
      mode: 'all',
    });
    return report.cli?.version;
  }

  private connectionFor(id: string, name: string | undefined): ConnectionRecord | undefined {
    if (name === undefined) return undefined;
    const connection = this.options.connections.get(name);
    if (connection.providerId !== id) {
      throw new SvcError({ code: 'connection_mismatch', message: `connection "${connection.name}" uses ${connection.providerId}, not ${id}` });
    }
    return connection;
  }

  /**
   * Starts a worker thread for each provider that serves calls (at most `limit`, in the registry's
   * order), so the first call after the service starts finds its thread already up. Such a thread
   * runs svc's worker bootstrap only: no provider code is imported before a call's preflight has
   * passed. One thread per provider; released like any idle thread (`runtime.idleTimeoutMs`) when no
   * call comes. A hardened provider starts at its call. Returns the providers started ahead.
   */
  warmServing(limit = WARM_AT_START_LIMIT): string[] {
    const ids = this.registry
      .list()
      .filter((record) => isServing(record) && effectiveIsolation(record) === 'worker')
      .slice(0, limit)
      .map((record) => record.id);
    for (const id of ids) void this.options.runtime.warm(id, 'worker');
    return ids;
  }

  /** Preflight on every load (nothing runs before it passes), then the permission gate. */
  prepare(id: string, options: CallRequestOptions = {}): Promise<CallTarget> {
    return this.calls.prepare(id, options);
  }

  stream(target: CallTarget, request: QueryRequest): AsyncIterable<CliStreamEvent> {
    return this.calls.stream(target, request);
  }

  generate(target: CallTarget, request: QueryRequest): Promise<CliQueryResult> {
    return this.calls.generate(target, request);
  }

  models(target: CallTarget): Promise<ModelInfo[]> {
    return this.calls.models(target);
  }

  /** The session process to start, checked by the session gate (`process:spawn`, the confirmed CLI, the host's folder). */
  buildSessionProcess(target: CallTarget, request: SessionRequest): Promise<GatedSessionProcess> {
    return this.calls.buildSessionProcess(target, request);
  }

  /** An integration call (mcp / hooks / skills), gated by the declared capability and the granted permission. */
  integration<M extends IntegrationMethodName>(target: CallTarget, method: M, args: AdapterMethodArgs<M>): Promise<AdapterMethodResult<M>> {
    return this.calls.integration(target, method, args);
  }

  sensitiveKeys(schema: ConfigSchema | undefined): Set<string> {
    return sensitiveKeysOf(schema);
  }

  /**
   * The options every preflight of this host starts from. The environment is the worker's scrubbed
   * one (no SVC_* setting, no catalog token): the CLI is looked up on its PATH, and the version probe,
   * when it runs, gets exactly it.
   */
  preflightOptions(connection?: ConnectionRecord): Omit<PreflightOptions, 'mode'> {
    return this.preflight.optionsFor(connection);
  }
}

function sessionsLine(manifest: Manifest | undefined, cli: string | null): { sessions?: string } {
  const sessions = manifest ? describeSessions(manifest.capabilities, manifest.permissions, cli) : null;
  return sessions ? { sessions } : {};
}
