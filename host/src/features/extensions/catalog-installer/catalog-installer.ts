// Catalog install, update, rollback and uninstall, as the CLI and the HTTP API reach them. Each
// operation is journaled first, does its slow work in staging, moves a finished version into the store
// with one rename, and switches with one transaction that also closes its journal row. A kill before
// that transaction leaves the previous state serving; the next start sweeps what was left behind.
import { chmod, mkdir, rename, rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Manifest } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import { readSystemConfig } from '../../../platform/config/read-system-config.js';
import { transaction, type Db } from '../../../platform/db/index.js';
import type { Logger } from '../../../platform/logging/index.js';
import { CatalogIndexVersions, fetchTrustedCatalogIndex, type CatalogTrust, type TrustedCatalogIndex } from '../catalog-trust/index.js';
import { redactUrl, type CatalogVersion, type DownloadProgress } from '../install/index.js';
import type { CheckFailure, PreflightOptions } from '../preflight/index.js';
import type { ExtensionRecord, ExtensionRegistry, ExtensionState, ExtensionVersionRecord, ExtensionVersionStore } from '../registry/index.js';
import type { ExtensionRuntime } from '../runtime/index.js';
import { describeProbe, probeFingerprint } from '../probe-fingerprint.js';
import { buildCatalogListing, type CatalogListing } from './build-catalog-listing.js';
import { buildOutdatedList, type OutdatedEntry } from './build-outdated-list.js';
import { CatalogInstallCodes } from './catalog-install-codes.js';
import { resolveCatalogSettings, type CatalogSettings } from './catalog-settings.js';
import { checkExactVersion, checkExtensionId } from './check-release.js';
import { createCrashHook, type CrashHook } from './crash-point.js';
import { ExtensionStoreLayout } from './extension-store-layout.js';
import { findCatalogRelease } from './find-catalog-release.js';
import { InstallJournal, type JournalEntry, type OperationKind } from './install-journal.js';
import { READ_ONLY_FOLDER_MODE } from './make-read-only.js';
import { preflightRelease } from './preflight-release.js';
import { recoverCatalogOperations, type CatalogRecoveryReport } from './recover-catalog-operations.js';
import { removeTree } from './remove-tree.js';
import { checkIndexPermissions } from './check-index-permissions.js';
import { stageRelease } from './stage-release.js';

export interface CatalogInstallerOptions {
  db: Db;
  registry: ExtensionRegistry;
  /** Unloads an uninstalled extension's threads. */
  runtime: Pick<ExtensionRuntime, 'unload'>;
  logger: Logger;
  svcHome: string;
  /** The server's environment: catalog URL and token, SVC_TEST_CRASH_AT. */
  env: NodeJS.ProcessEnv;
  /** The host's preflight options (ExtensionService.preflightOptions). */
  preflightOptions: () => Omit<PreflightOptions, 'mode' | 'expected'>;
  hostVersion: string;
  /** Trusted CAs replacing Node's store (in-process tests); default: Node's store plus NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Names of the connections that use a provider: uninstall refuses to leave them behind unless forced. */
  connectionsOf?: (id: string) => string[];
}

/** How a caller follows an operation (the CLI prints it; HTTP ignores it). */
export interface OperationObserver {
  onStep?: (line: string) => void;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

export interface InstallOutcome {
  record: ExtensionRecord;
  warnings: CheckFailure[];
}

/** `switched`: the version serves now. `pending`: it waits for `svc ext enable` because its permissions differ. */
export type SwitchOutcome =
  | { kind: 'switched'; record: ExtensionRecord; from: string; to: string; warnings: CheckFailure[] }
  | {
      kind: 'pending';
      record: ExtensionRecord;
      current: string;
      pending: string;
      added: string[];
      dropped: string[];
      /** Set when the version names another CLI probe than the one confirmed. */
      probe?: { confirmed: string; requested: string };
      warnings: CheckFailure[];
    };

export type RollbackOutcome = SwitchOutcome | { kind: 'discarded-pending'; record: ExtensionRecord; discarded: string };

type Decision = 'switch' | 'pending';

export class CatalogInstaller {
  readonly layout: ExtensionStoreLayout;
  private readonly journal: InstallJournal;
  private readonly versions: ExtensionVersionStore;
  private readonly crash: CrashHook;
  private readonly indexVersions: CatalogIndexVersions;
  private notice: (line: string) => void;
  private unsignedNoticeGiven = false;

  constructor(private readonly options: CatalogInstallerOptions) {
    this.layout = new ExtensionStoreLayout(options.svcHome);
    this.indexVersions = new CatalogIndexVersions(options.db);
    this.notice = (line) => options.logger.warn(line);
    this.journal = new InstallJournal(options.db);
    this.versions = options.registry.versions;
    this.crash = createCrashHook(options.env);
  }

  /** The catalog's URL, bounds and token, as configured now (the token is never shown). */
  settings(): CatalogSettings {
    return resolveCatalogSettings(this.options.env, (key) => readSystemConfig(this.options.db, key));
  }

  /** Where notes for the person at hand go (the CLI: stderr); default the log. */
  onNotice(sink: (line: string) => void): void {
    this.notice = sink;
  }

  async catalog(signal?: AbortSignal): Promise<CatalogListing & { signature: CatalogTrust }> {
    const { index, trust } = await this.fetchIndex(this.settings(), signal);
    return { signature: trust, ...buildCatalogListing(index, this.options.registry.list(), { host: this.options.hostVersion, node: process.versions.node }) };
  }

  /**
   * Each installed catalog provider against the verified index: the newest version compatible with
   * this host, Node.js and its CLI (`cliVersion` answers only where the probe may run), and the
   * newest overall. Fetches the index only; nothing is downloaded.
   */
  async outdated(
    cliVersion: (id: string) => Promise<string | undefined>,
    signal?: AbortSignal,
  ): Promise<{ configured: boolean; signature: CatalogTrust | null; extensions: OutdatedEntry[] }> {
    let settings: CatalogSettings;
    try {
      settings = this.settings();
    } catch (error) {
      // No catalog, nothing newer to know of: a plain answer, not a failure.
      if (SvcError.hasCode(error) && error.code === CatalogInstallCodes.catalogNotConfigured) return { configured: false, signature: null, extensions: [] };
      throw error;
    }
    const { index, trust } = await this.fetchIndex(settings, signal);
    const records = this.options.registry.list().filter((record) => record.source === 'catalog');
    const cli = new Map<string, string | undefined>();
    for (const record of records) cli.set(record.id, await cliVersion(record.id).catch(() => undefined));
    return { configured: true, signature: trust, extensions: buildOutdatedList(index, records, { host: this.options.hostVersion, node: process.versions.node, cli }) };
  }

  async install(id: string, version: string, observer: OperationObserver = {}): Promise<InstallOutcome> {
    checkExtensionId(id);
    checkExactVersion(version, id);
    this.refuseRegistered(id, version);
    const settings = this.settings();
    observer.onStep?.(`catalog ${redactUrl(settings.indexUrl)}`);
    const { release } = findCatalogRelease((await this.fetchIndex(settings, observer.signal, observer.onStep)).index, id, version);

    const op = this.journal.begin('install', id, version);
    const target = this.layout.versionDir(id, version);
    let moved = false;
    let committed = false;
    try {
      this.crash('install:journaled');
      // Checked again under the journal: another process may have installed it meanwhile.
      this.refuseRegistered(id, version);
      const staged = await this.stage(op, release, settings, observer);
      this.crash('install:staged');
      await this.moveIntoStore(staged.packageDir, target);
      moved = true;
      this.crash('install:moved');
      transaction(this.options.db, () => {
        this.versions.registerCatalog({ id, version, path: target, displayName: staged.manifest.display.name });
        this.versions.addVersion({
          id,
          version,
          path: target,
          sha256: release.artifact.sha256,
          size: release.artifact.size,
          permissions: staged.manifest.permissions,
          treeSha256: staged.treeSha256,
        });
        this.journal.finish(op.opId);
        this.crash('install:in-transaction');
      });
      committed = true;
      this.crash('install:committed');
      this.options.logger.info('extension installed from the catalog', { id, version, sha256: release.artifact.sha256 });
      return { record: this.options.registry.get(id), warnings: staged.warnings };
    } catch (error) {
      if (!committed) await this.abandon(op, moved ? [target] : []);
      throw error;
    } finally {
      await this.cleanup([this.layout.stagingDir(op.opId)]);
    }
  }

  /**
   * Stages `version` and switches to it when its permissions equal the granted set (or nothing is
   * enabled); otherwise it waits as the pending version while the current one keeps serving.
   */
  async update(id: string, version: string, observer: OperationObserver = {}): Promise<SwitchOutcome> {
    checkExtensionId(id);
    checkExactVersion(version, id);
    this.refuseCurrent(this.catalogRecord(id), version);
    const settings = this.settings();
    observer.onStep?.(`catalog ${redactUrl(settings.indexUrl)}`);
    const { release } = findCatalogRelease((await this.fetchIndex(settings, observer.signal, observer.onStep)).index, id, version);

    const op = this.journal.begin('update', id, version);
    let moved: string | undefined;
    let committed = false;
    try {
      this.crash('update:journaled');
      const record = this.catalogRecord(id);
      this.refuseCurrent(record, version);
      const held = this.versions.find(id, version);
      let path: string;
      let manifest: Manifest;
      let warnings: CheckFailure[];
      let treeSha256 = '';
      if (held) {
        // This host already holds the version (the previous or a pending one): no download, but the
        // catalog must still describe the very same bytes.
        if (held.sha256 !== release.artifact.sha256) throw notImmutable(id, version, held, release);
        observer.onStep?.(`${id} ${version} is already in the store (sha256 ${held.sha256})`);
        ({ manifest, warnings } = await preflightRelease(held.path, { id, version }, this.heldPreflightOptions(held)));
        checkIndexPermissions(id, release, manifest);
        path = held.path;
      } else {
        const staged = await this.stage(op, release, settings, observer);
        this.crash('update:staged');
        path = this.layout.versionDir(id, version);
        await this.moveIntoStore(staged.packageDir, path);
        moved = path;
        this.crash('update:moved');
        ({ manifest, warnings, treeSha256 } = staged);
      }
      const decision = decide(record, manifest);
      let pruned: ExtensionVersionRecord[] = [];
      transaction(this.options.db, () => {
        if (!held) {
          this.versions.addVersion({ id, version, path, sha256: release.artifact.sha256, size: release.artifact.size, permissions: manifest.permissions, treeSha256 });
        }
        pruned = this.applySwitch(record, { version, path, displayName: manifest.display.name }, decision);
        this.journal.finish(op.opId);
        this.crash('update:in-transaction');
      });
      committed = true;
      this.crash('update:committed');
      await this.cleanup(pruned.map((row) => row.path));
      this.options.logger.info('catalog extension updated', { id, from: record.version, to: version, decision });
      return this.outcome(record, version, manifest, decision, warnings);
    } catch (error) {
      if (!committed) await this.abandon(op, moved ? [moved] : []);
      throw error;
    } finally {
      await this.cleanup([this.layout.stagingDir(op.opId)]);
    }
  }

  /**
   * Back to the previous installed version (which becomes the previous one in turn, so a second
   * rollback returns). When an update waits for confirmation, rollback discards it instead.
   */
  async rollback(id: string): Promise<RollbackOutcome> {
    checkExtensionId(id);
    this.catalogRecord(id);
    const op = this.journal.begin('rollback', id);
    let committed = false;
    try {
      this.crash('rollback:journaled');
      const record = this.catalogRecord(id);
      let pruned: ExtensionVersionRecord[] = [];
      if (record.pendingVersion) {
        const discarded = record.pendingVersion;
        transaction(this.options.db, () => {
          this.versions.setPending(id, null, record.state === 'needs-confirmation' ? 'enabled' : record.state);
          pruned = this.versions.removeVersionsExcept(id, [record.version, record.previousVersion]);
          this.journal.finish(op.opId);
          this.crash('rollback:in-transaction');
        });
        committed = true;
        this.crash('rollback:committed');
        await this.cleanup(pruned.map((row) => row.path));
        this.options.logger.info('pending catalog update discarded', { id, discarded });
        return { kind: 'discarded-pending', record: this.options.registry.get(id), discarded };
      }
      if (record.rolledBackFrom !== undefined && record.rolledBackFrom === record.previousVersion) {
        // Going "back" again would go forward to the version just left: say so instead of doing it.
        throw new SvcError({
          code: CatalogInstallCodes.alreadyRolledBack,
          message: `${id} was already rolled back from ${record.rolledBackFrom} to ${record.version}; a second rollback would go forward again`,
          details: { id, version: record.version, rolledBackFrom: record.rolledBackFrom, fix: `To return to ${record.rolledBackFrom}, run \`svc ext update ${id}@${record.rolledBackFrom}\`` },
        });
      }
      if (!record.previousVersion) {
        throw new SvcError({
          code: CatalogInstallCodes.noPreviousVersion,
          message: `${id} ${record.version} has no previous version to roll back to`,
          details: { id, version: record.version },
        });
      }
      const held = this.versions.get(id, record.previousVersion);
      const { manifest, warnings } = await preflightRelease(held.path, { id, version: held.version }, this.heldPreflightOptions(held));
      const decision = decide(record, manifest);
      transaction(this.options.db, () => {
        pruned = this.applySwitch(record, { version: held.version, path: held.path, displayName: manifest.display.name }, decision, record.version);
        this.journal.finish(op.opId);
        this.crash('rollback:in-transaction');
      });
      committed = true;
      this.crash('rollback:committed');
      await this.cleanup(pruned.map((row) => row.path));
      this.options.logger.info('catalog extension rolled back', { id, from: record.version, to: held.version, decision });
      return this.outcome(record, held.version, manifest, decision, warnings);
    } catch (error) {
      if (!committed) await this.abandon(op, []);
      throw error;
    }
  }

  /**
   * Removes the registration (with its grants and plugin storage) and every stored version. Connections
   * that use the provider would be left pointing at nothing: without `force` that is refused (naming
   * them); with it they stay, and the outcome names them.
   */
  async uninstall(id: string, options: { force?: boolean } = {}): Promise<{ id: string; version: string; connectionsLeft: string[] }> {
    checkExtensionId(id);
    this.catalogRecord(id);
    const connectionsLeft = this.options.connectionsOf?.(id) ?? [];
    if (connectionsLeft.length > 0 && !options.force) {
      throw new SvcError({
        code: CatalogInstallCodes.connectionsLeft,
        message: `${id} is used by the connection${connectionsLeft.length === 1 ? '' : 's'} ${connectionsLeft.join(', ')}; uninstalling it would leave them without a provider`,
        details: {
          id,
          connections: connectionsLeft,
          fix: `Remove them first (\`svc connection remove <name>\`), or uninstall anyway with \`svc ext uninstall ${id} --force\``,
        },
      });
    }
    const op = this.journal.begin('uninstall', id);
    let committed = false;
    let rows: ExtensionVersionRecord[] = [];
    let version = '';
    try {
      this.crash('uninstall:journaled');
      version = this.catalogRecord(id).version;
      await this.options.runtime.unload(id);
      transaction(this.options.db, () => {
        rows = this.versions.list(id);
        this.versions.deleteRegistration(id);
        this.journal.finish(op.opId);
        this.crash('uninstall:in-transaction');
      });
      committed = true;
      this.crash('uninstall:committed');
    } catch (error) {
      if (!committed) await this.abandon(op, []);
      throw error;
    }
    await this.cleanup(rows.map((row) => row.path));
    await rmdir(this.layout.extensionDir(id)).catch(() => undefined);
    this.options.logger.info('catalog extension uninstalled', { id, version, connectionsLeft });
    return { id, version, connectionsLeft };
  }

  /** Cleans up after operations a kill interrupted (see recoverCatalogOperations). */
  recover(): Promise<CatalogRecoveryReport> {
    return recoverCatalogOperations({ journal: this.journal, versions: this.versions, layout: this.layout, logger: this.options.logger });
  }

  private async fetchIndex(settings: CatalogSettings, signal?: AbortSignal, onStep?: (line: string) => void): Promise<TrustedCatalogIndex> {
    const trusted = await fetchTrustedCatalogIndex(settings.indexUrl, {
      token: settings.token,
      maxBytes: settings.bounds.maxIndexBytes,
      ca: this.options.ca,
      signal,
      keys: settings.keys,
      versions: this.indexVersions,
    });
    const { trust } = trusted;
    if (trust.signed) onStep?.(`index version ${trust.version} signed by pinned key ${trust.keyId}, expires ${trust.expires}`);
    else if (!this.unsignedNoticeGiven) {
      this.unsignedNoticeGiven = true;
      this.notice(`the catalog is unsigned: no key is pinned, so the index is trusted for its HTTPS URL alone (pin the catalog's key with: svc config set extensions.catalogKeys <public key>)`);
    }
    return trusted;
  }

  private stage(op: JournalEntry, release: CatalogVersion, settings: CatalogSettings, observer: OperationObserver) {
    const kind = op.kind as Extract<OperationKind, 'install' | 'update'>;
    return stageRelease({
      id: op.extensionId,
      release,
      stagingDir: this.layout.stagingDir(op.opId),
      bounds: settings.bounds,
      token: tokenFor(settings, release.artifact.url),
      ca: this.options.ca,
      preflight: this.options.preflightOptions(),
      signal: observer.signal,
      onStep: observer.onStep,
      onProgress: (progress) => {
        observer.onProgress?.(progress);
        this.crash(`${kind}:downloading`);
      },
    });
  }

  /** A version already in the store is checked against the tree digest recorded at its install. */
  private heldPreflightOptions(held: ExtensionVersionRecord): Omit<PreflightOptions, 'mode' | 'expected'> {
    return { ...this.options.preflightOptions(), ...(held.treeSha256 ? { expectedTreeDigest: held.treeSha256 } : {}) };
  }

  /** One rename(2): the version appears in the store whole or not at all. */
  private async moveIntoStore(packageDir: string, target: string): Promise<void> {
    // A folder no row names is a leftover of a kill between such a rename and its commit.
    if (await stat(target).catch(() => undefined)) await removeTree(target);
    for (let attempt = 0; ; attempt++) {
      await mkdir(dirname(target), { recursive: true, mode: 0o755 });
      try {
        await rename(packageDir, target);
        break;
      } catch (error) {
        // A concurrent start's sweep may remove an empty store/<id> between mkdir and rename.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) throw error;
      }
    }
    await chmod(target, READ_ONLY_FOLDER_MODE);
  }

  /** The statements of a switch, run inside the caller's transaction; returns the version rows dropped. */
  private applySwitch(
    record: ExtensionRecord,
    target: { version: string; path: string; displayName: string },
    decision: Decision,
    /** Set by a rollback: the version it leaves (a second rollback refuses to return to it). */
    rolledBackFrom?: string,
  ): ExtensionVersionRecord[] {
    const { id } = record;
    if (decision === 'pending') {
      this.versions.setPending(id, target.version, 'needs-confirmation', rolledBackFrom);
      return this.versions.removeVersionsExcept(id, [record.version, record.previousVersion, target.version]);
    }
    this.versions.setCurrent(id, { ...target, previousVersion: record.version, state: stateAfterSwitch(record), rolledBackFrom: rolledBackFrom ?? null });
    return this.versions.removeVersionsExcept(id, [target.version, record.version]);
  }

  private outcome(before: ExtensionRecord, version: string, manifest: Manifest, decision: Decision, warnings: CheckFailure[]): SwitchOutcome {
    const record = this.options.registry.get(before.id);
    if (decision === 'switch') return { kind: 'switched', record, from: before.version, to: version, warnings };
    const { permissions } = manifest;
    const granted = new Set(before.grantedPermissions);
    const probe = probeFingerprint(manifest);
    return {
      kind: 'pending',
      record,
      current: before.version,
      pending: version,
      added: [...new Set(permissions)].filter((name) => !granted.has(name)).sort(),
      dropped: before.grantedPermissions.filter((name) => !permissions.includes(name)).sort(),
      ...(before.confirmedProbe !== undefined && before.confirmedProbe !== probe
        ? { probe: { confirmed: describeProbe(before.confirmedProbe), requested: describeProbe(probe) } }
        : {}),
      warnings,
    };
  }

  private catalogRecord(id: string): ExtensionRecord {
    const record = this.options.registry.get(id);
    if (record.source !== 'catalog') {
      const how = record.source === 'builtin' ? `it ships with svc; \`svc ext disable ${id}\` turns it off` : `remove a developer registration with \`svc ext dev remove ${id}\``;
      throw new SvcError({
        code: CatalogInstallCodes.notCatalogExtension,
        message: `${id} is a ${record.source === 'builtin' ? 'built-in' : 'developer'} extension, not a catalog install; ${how}`,
        details: { id, source: record.source },
      });
    }
    return record;
  }

  private refuseRegistered(id: string, version: string): void {
    const existing = this.options.registry.find(id);
    if (!existing) return;
    throw new SvcError({
      code: CatalogInstallCodes.extensionExists,
      message:
        existing.source === 'catalog'
          ? `${id} ${existing.version} is already installed; change its version with \`svc ext update ${id}@${version}\``
          : `${id} is already registered as a ${existing.source === 'builtin' ? 'built-in' : 'developer'} extension`,
      details: { id, source: existing.source, version: existing.version },
    });
  }

  private refuseCurrent(record: ExtensionRecord, version: string): void {
    if (record.version !== version) return;
    throw new SvcError({
      code: CatalogInstallCodes.versionAlreadyCurrent,
      message: `${record.id} ${version} is already the installed version${record.pendingVersion ? ` (\`svc ext rollback ${record.id}\` discards the pending ${record.pendingVersion})` : ''}`,
      details: { id: record.id, version },
    });
  }

  /** Gives up an operation that did not commit: its files go, its journal row goes. */
  private async abandon(op: JournalEntry, paths: string[]): Promise<void> {
    await this.cleanup(paths);
    this.journal.finish(op.opId);
  }

  /** Best effort: whatever stays behind is a leftover the next start sweeps. */
  private async cleanup(paths: string[]): Promise<void> {
    for (const path of paths) {
      await removeTree(path).catch((error: Error) => this.options.logger.warn('could not remove a catalog install folder', { path, error: error.message }));
    }
  }
}

/** Whether calls are being served now: enabled, or the current version of an update that waits. */
function isServing(record: ExtensionRecord): boolean {
  return record.state === 'enabled' || (record.state === 'needs-confirmation' && record.pendingVersion !== undefined);
}

/** An enabled extension keeps exactly the permissions and the CLI probe the user confirmed: other ones must be confirmed first. */
function decide(record: ExtensionRecord, manifest: Manifest): Decision {
  if (!isServing(record)) return 'switch';
  if (record.confirmedProbe !== undefined && record.confirmedProbe !== probeFingerprint(manifest)) return 'pending';
  const { permissions } = manifest;
  const wanted = [...new Set(permissions)].sort();
  const granted = [...new Set(record.grantedPermissions)].sort();
  return wanted.length === granted.length && wanted.every((name, i) => name === granted[i]) ? 'switch' : 'pending';
}

function stateAfterSwitch(record: ExtensionRecord): ExtensionState {
  if (isServing(record)) return 'enabled';
  // A broken version is replaced: the new one has passed preflight but was never enabled.
  return record.state === 'broken' ? 'disabled' : record.state;
}

/** The bearer token is for the catalog's origin; an artifact hosted elsewhere never receives it. */
function tokenFor(settings: CatalogSettings, artifactUrl: string): string | undefined {
  try {
    return new URL(artifactUrl).origin === settings.indexUrl.origin ? settings.token : undefined;
  } catch {
    return undefined;
  }
}

function notImmutable(id: string, version: string, held: ExtensionVersionRecord, release: CatalogVersion): SvcError {
  return new SvcError({
    code: CatalogInstallCodes.artifactNotImmutable,
    message: `the catalog now lists different bytes for ${id} ${version} (sha256 ${release.artifact.sha256}) than the installed ${held.sha256}; a published version never changes`,
    details: { id, version, installed: held.sha256, catalog: release.artifact.sha256 },
  });
}
