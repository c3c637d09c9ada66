// What `svc ext outdated` and GET /api/extensions/outdated show: for each installed catalog
// provider, its installed version, the newest version compatible with this svc, this Node.js and
// the installed CLI, and the newest overall with why it is not compatible. Pre-releases are offered
// only to a provider that runs a pre-release, as npm does.
import semver from 'semver';
import type { CatalogIndex } from '../install/index.js';
import type { ExtensionRecord } from '../registry/index.js';
import { versionInRange } from '../preflight/version-in-range.js';

export interface Incompatibility {
  /** What the version asks for that this host does not have. */
  check: 'svc' | 'node' | 'cli';
  range: string;
  /** This host's version (the CLI's as its probe reported it). */
  have: string;
}

export interface OutdatedVersion {
  version: string;
  permissions: { added: string[]; dropped: string[] };
}

export interface OutdatedEntry {
  id: string;
  installed: string;
  /** An update staged and waiting for confirmation. */
  pending: string | null;
  /** The CLI version the CLI ranges were checked against; null when the probe may not run (not enabled with process:spawn). */
  cliVersion: string | null;
  newestCompatible: OutdatedVersion | null;
  newest: (OutdatedVersion & { compatible: boolean; incompatible: Incompatibility[] }) | null;
  /** The newest compatible version is newer than the installed one. */
  updateAvailable: boolean;
}

export function buildOutdatedList(
  index: CatalogIndex,
  records: readonly ExtensionRecord[],
  versions: { host: string; node: string; cli: ReadonlyMap<string, string | undefined> },
): OutdatedEntry[] {
  const offered = new Map(index.extensions.map((extension) => [extension.id, extension]));
  const entries: OutdatedEntry[] = [];
  for (const record of records) {
    const extension = offered.get(record.id);
    if (record.source !== 'catalog' || !extension) continue;
    const cli = versions.cli.get(record.id);
    const allowPrerelease = semver.prerelease(record.version) !== null;
    const releases = extension.versions
      .filter((release) => semver.valid(release.version) !== null && (allowPrerelease || semver.prerelease(release.version) === null))
      .sort((a, b) => semver.rcompare(a.version, b.version));
    const granted = new Set(record.grantedPermissions);
    const describe = (release: (typeof releases)[number]): OutdatedVersion => ({
      version: release.version,
      permissions: {
        added: release.permissions.filter((permission) => !granted.has(permission)),
        dropped: record.grantedPermissions.filter((permission) => !release.permissions.includes(permission)),
      },
    });
    const incompatible = (release: (typeof releases)[number]): Incompatibility[] => {
      const { svc, node, cli: cliRange } = release.compatibility;
      const found: Incompatibility[] = [];
      if (!versionInRange('svc', versions.host, svc)) found.push({ check: 'svc', range: svc, have: versions.host });
      if (!versionInRange('node', versions.node, node)) found.push({ check: 'node', range: node, have: versions.node });
      const cliVersion = cli === undefined ? null : semver.coerce(cli, { includePrerelease: true })?.version ?? cli;
      if (cliRange !== undefined && cliVersion !== null && !versionInRange('cli', cliVersion, cliRange)) {
        found.push({ check: 'cli', range: cliRange, have: cli! });
      }
      return found;
    };
    const newest = releases[0];
    const compatible = releases.find((release) => incompatible(release).length === 0);
    const reasons = newest ? incompatible(newest) : [];
    entries.push({
      id: record.id,
      installed: record.version,
      pending: record.pendingVersion ?? null,
      cliVersion: cli ?? null,
      newestCompatible: compatible ? describe(compatible) : null,
      newest: newest ? { ...describe(newest), compatible: reasons.length === 0, incompatible: reasons } : null,
      updateAvailable: compatible !== undefined && semver.valid(record.version) !== null && semver.gt(compatible.version, record.version),
    });
  }
  return entries;
}
