// Every check the contract asks for before plugin code may load, in order. Nothing here imports,
// requires or evaluates a file of the plugin: it reads package.json and the config schema, stats
// the entry, and finds the CLI; the CLI's version probe runs only when `cliProbe` is `run`.
import type { ConfigSchema, Manifest, ProviderPackage } from '@svc-org/ai-sdk';
import { checkCatalogVersion } from './check-catalog-version.js';
import { checkCliDependency, type ResolvedCli } from './check-cli-dependency.js';
import { checkConfigSchema, checkEntry, checkManifest, checkPermissions, CHECK_NAMES, type CheckName, type CheckResult } from '@svc-org/extension-format/manifest';
import { checkHostRange } from './check-host-range.js';
import { checkNodeRange } from './check-node-range.js';
import { checkTreeDigest } from './check-tree-digest.js';
import { resolvePreflightOptions, type PreflightOptions } from './preflight-options.js';

export interface PreflightReport {
  ok: boolean;
  /** The checks that ran, in order. */
  checks: CheckResult[];
  /** Checks that did not run: after the first failure, or (in `all` mode) without a valid manifest. */
  skipped: CheckName[];
  pkg?: ProviderPackage;
  manifest?: Manifest;
  /** Real path of the entry file, for the loader. */
  entryPath?: string;
  configSchema?: ConfigSchema;
  cli?: ResolvedCli;
}

export async function runPreflight(packageDir: string, options: PreflightOptions): Promise<PreflightReport> {
  const resolved = resolvePreflightOptions(options);
  const report: PreflightReport = { ok: true, checks: [], skipped: [] };
  const optional = (name: CheckName) =>
    (name !== 'catalog-version' || resolved.expected !== undefined) && (name !== 'integrity' || resolved.expectedTreeDigest !== undefined);

  if (resolved.expectedTreeDigest !== undefined) {
    // Files changed after the install are not even read: every later check would trust them.
    const integrity = await checkTreeDigest(packageDir, resolved.expectedTreeDigest);
    report.checks.push(integrity);
    if (!integrity.ok) {
      report.ok = false;
      report.skipped = CHECK_NAMES.filter((name) => name !== 'integrity' && optional(name));
      return report;
    }
  }

  const manifestResult = await checkManifest(packageDir);
  report.checks.push(manifestResult);
  if (!manifestResult.ok) {
    // Every other check reads the manifest.
    report.ok = false;
    report.skipped = CHECK_NAMES.filter((name) => name !== 'manifest' && name !== 'integrity' && optional(name));
    return report;
  }
  const pkg = manifestResult.pkg;
  const manifest = pkg.svc;
  report.pkg = pkg;
  report.manifest = manifest;

  const steps: Array<{ name: CheckName; run: () => CheckResult | Promise<CheckResult> }> = [
    ...(resolved.expected ? [{ name: 'catalog-version' as const, run: () => checkCatalogVersion(pkg, resolved.expected!) }] : []),
    { name: 'host-range', run: () => checkHostRange(manifest, resolved.hostVersion) },
    { name: 'node-range', run: () => checkNodeRange(manifest, resolved.nodeVersion) },
    { name: 'permissions', run: () => checkPermissions(manifest) },
    {
      name: 'entry',
      run: async () => {
        const result = await checkEntry(packageDir, pkg);
        if (result.ok) report.entryPath = result.entryPath;
        return result;
      },
    },
    {
      name: 'config-schema',
      run: async () => {
        const result = await checkConfigSchema(packageDir, manifest);
        if (result.ok && result.configSchema) report.configSchema = result.configSchema;
        return result;
      },
    },
    {
      name: 'cli-dependency',
      run: async () => {
        const confirmed = options.probeConfirmed?.(manifest) ?? true;
        const result = await checkCliDependency(manifest, confirmed ? resolved : { ...resolved, cliProbe: 'resolve-only' });
        if (result.ok) report.cli = result.cli;
        return result;
      },
    },
  ];

  for (const [index, step] of steps.entries()) {
    const result = await step.run();
    report.checks.push(result);
    if (!result.ok) {
      report.ok = false;
      if (resolved.mode === 'stop-at-first-failure') {
        report.skipped = steps.slice(index + 1).map((rest) => rest.name);
        break;
      }
    }
  }
  return report;
}
