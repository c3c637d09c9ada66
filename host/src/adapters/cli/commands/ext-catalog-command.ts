// `svc ext catalog|install|update|rollback|uninstall`: the catalog side of `svc ext`.
import { SvcError } from '@svc-org/ai-sdk';
import type { z } from 'zod';
import { redactUrl } from '../../../features/extensions/install/index.js';
import { CATALOG_URL_KEY, CatalogInstallCodes, parseReleaseSpec, checkExtensionId } from '../../../features/extensions/catalog-installer/index.js';
import type { HostServices } from '../../../host-services.js';
import {
  getExtension,
  installExtension,
  listCatalog,
  listOutdatedExtensions,
  rollbackExtension,
  uninstallExtension,
  updateExtension,
} from '../../../operations/extension/index.js';
import type { CatalogListingSchema, OutdatedListSchema, SwitchOutcomeSchema } from '../../../operations/extension/catalog-schemas.js';
import type { CliRun } from '../cli-command.js';
import type { CliIo } from '../cli-io.js';
import { createProgressReporter } from '../download-progress.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';
import { terminalJson, terminalLine } from '../terminal-text.js';

type Invoke = CliRun['invoke'];
type CatalogListing = z.output<typeof CatalogListingSchema>;
type SwitchOutcome = z.output<typeof SwitchOutcomeSchema>;
type Outdated = z.output<typeof OutdatedListSchema>['extensions'][number];

export type CatalogSubcommand = 'catalog' | 'outdated' | 'install' | 'update' | 'rollback' | 'uninstall';

/**
 * Ctrl-C or SIGTERM (`signal`) stops a catalog fetch or download at once: the operation is undone like
 * any failed one, and the command exits 130.
 */
export async function extCatalogCommand(
  sub: CatalogSubcommand,
  args: string[],
  io: CliIo,
  openServices: () => Promise<HostServices>,
  invoke: Invoke,
  signal?: AbortSignal,
): Promise<number> {
  try {
    // Notes (an unsigned catalog) go to stderr, once per command, so --json output stays clean. The
    // operations run on these same services, so the listener is in place before any of them fetches.
    const services = await openServices();
    services.catalog.onNotice((line) => io.stderr.write(`${terminalLine(`note: ${line}`)}\n`));
    return await runCatalogCommand(sub, args, io, services, invoke);
  } catch (error) {
    if (signal?.aborted && SvcError.hasCode(error) && error.code === 'cancelled') {
      io.stderr.write(`${terminalLine(`error cancelled: ${error.message}`)}\n`);
      return 130;
    }
    throw error;
  }
}

async function runCatalogCommand(
  sub: CatalogSubcommand,
  args: string[],
  io: CliIo,
  services: HostServices,
  invoke: Invoke,
): Promise<number> {
  switch (sub) {
    case 'catalog': {
      const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, 'svc ext catalog [--json]');
      if (positionals.length > 0) throw new UsageError('usage: svc ext catalog [--json]');
      const listing = await invoke(listCatalog, {});
      if (values.json) io.stdout.write(`${terminalJson(JSON.stringify(listing, null, 2))}\n`);
      else printListing(io, redactUrl(services.catalog.settings().indexUrl), listing);
      return 0;
    }
    case 'install': {
      const { value, json } = single(args, 'svc ext install <id>@<exact version> [--json]');
      const spec = parseReleaseSpec(value);
      // With --json, stdout carries only the result; the steps go to stderr.
      const { extension, warnings } = await invoke(installExtension, { id: spec.id, version: spec.version }, createProgressReporter(json ? io.stderr : io.stdout));
      if (json) return printJson(io, { extension, warnings });
      printWarnings(io, warnings);
      io.stdout.write(`${terminalLine(`installed ${extension.id} ${extension.version} (${extension.state}); enable it with: svc ext enable ${extension.id}`)}\n`);
      return 0;
    }
    case 'outdated': {
      const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, 'svc ext outdated [--json]');
      if (positionals.length > 0) throw new UsageError('usage: svc ext outdated [--json]');
      const outdated = await invoke(listOutdatedExtensions, {});
      if (values.json) return printJson(io, outdated);
      if (!outdated.configured) {
        io.stdout.write(`no catalog configured, so nothing to compare with (set one with: svc config set ${CATALOG_URL_KEY} <index URL>)\n`);
        return 0;
      }
      printOutdated(io, outdated.extensions);
      return 0;
    }
    case 'update':
      return runUpdate(args, io, invoke);
    case 'rollback': {
      const { value, json } = single(args, 'svc ext rollback <id> [--json]');
      const outcome = await invoke(rollbackExtension, { id: checkExtensionId(value) });
      if (json) return printJson(io, outcome);
      printSwitch(io, 'rolled back', outcome);
      return 0;
    }
    case 'uninstall': {
      const usage = 'svc ext uninstall <id> [--force] [--json]';
      const { values, positionals } = parseCommandArgs(args, { force: { type: 'boolean' }, json: { type: 'boolean' } }, usage);
      if (positionals.length !== 1) throw new UsageError(`expected exactly one argument\nusage: ${usage}`);
      const answer = await invoke(uninstallExtension, { id: checkExtensionId(positionals[0]!), force: values.force === true });
      if (values.json) return printJson(io, answer);
      const removed = answer.uninstalled;
      io.stdout.write(`${terminalLine(`uninstalled ${removed.id} ${removed.version}`)}\n`);
      if (removed.connectionsLeft.length > 0) {
        io.stdout.write(`${terminalLine(`warning: these connections still name ${removed.id} and will fail until it is installed again: ${removed.connectionsLeft.join(', ')}`)}\n`);
      }
      return 0;
    }
  }
}

/** `svc ext update`: one extension to a given or the newest compatible version, or every one with --all. */
async function runUpdate(args: string[], io: CliIo, invoke: Invoke): Promise<number> {
  const usage = 'svc ext update <id>[@<exact version>] | --all [--json]';
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, all: { type: 'boolean' } }, usage);
  const json = values.json === true;
  if (values.all) {
    if (positionals.length > 0) throw new UsageError(`--all takes no extension id\nusage: ${usage}`);
    return updateAll(io, invoke, json);
  }
  if (positionals.length !== 1) throw new UsageError(`expected exactly one argument\nusage: ${usage}`);
  const value = positionals[0]!;
  if (value.includes('@')) {
    const spec = parseReleaseSpec(value);
    const outcome = await invoke(updateExtension, { id: spec.id, version: spec.version }, createProgressReporter(json ? io.stderr : io.stdout));
    if (json) return printJson(io, outcome);
    printSwitch(io, 'updated', outcome);
    return 0;
  }
  // No version: resolved to the newest compatible exact version, shown before anything is fetched.
  const entry = await resolveUpdate(checkExtensionId(value), invoke);
  const out = json ? io.stderr : io.stdout;
  if (!entry.updateAvailable) {
    out.write(`${upToDate(entry)}\n`);
    return json ? printJson(io, { id: entry.id, outcome: 'up-to-date', version: entry.installed }) : 0;
  }
  if (entry.pending === entry.newestCompatible!.version) {
    out.write(`${waiting(entry)}\n`);
    return json ? printJson(io, { id: entry.id, outcome: 'pending', version: entry.pending }) : 0;
  }
  out.write(`${describeResolution(entry)}\n`);
  const outcome = await invoke(updateExtension, { id: entry.id, version: entry.newestCompatible!.version }, createProgressReporter(json ? io.stderr : io.stdout));
  if (json) return printJson(io, outcome);
  printSwitch(io, 'updated', outcome);
  return 0;
}

/** The outdated entry of one installed catalog extension, or the coded reason there is none to update to. */
async function resolveUpdate(id: string, invoke: Invoke): Promise<Outdated> {
  const { extensions } = await invoke(listOutdatedExtensions, {});
  const entry = extensions.find((candidate) => candidate.id === id);
  if (!entry) {
    const record = await invoke(getExtension, { id });
    if (record.source !== 'catalog') {
      throw new SvcError({ code: CatalogInstallCodes.notCatalogExtension, message: `${id} is a ${record.source} extension; only catalog extensions are updated from the catalog` });
    }
    throw new SvcError({ code: CatalogInstallCodes.extensionNotInCatalog, message: `the catalog no longer lists ${id}` });
  }
  if (!entry.newestCompatible) {
    throw new SvcError({
      code: CatalogInstallCodes.noCompatibleVersion,
      message: `no version of ${id} in the catalog is compatible with this host${entry.newest ? `: the newest, ${entry.newest.version}, ${whyNot(entry.newest.incompatible)}` : ''}`,
    });
  }
  return entry;
}

async function updateAll(io: CliIo, invoke: Invoke, json: boolean): Promise<number> {
  const { extensions } = await invoke(listOutdatedExtensions, {});
  const out = json ? io.stderr : io.stdout;
  const results: Array<{ id: string; outcome: string; from?: string; to?: string; error?: { code: string; message: string } }> = [];
  for (const entry of extensions) {
    if (!entry.updateAvailable) {
      out.write(`${upToDate(entry)}\n`);
      results.push({ id: entry.id, outcome: 'up-to-date', from: entry.installed });
      continue;
    }
    if (entry.pending === entry.newestCompatible!.version) {
      out.write(`${waiting(entry)}\n`);
      results.push({ id: entry.id, outcome: 'pending', from: entry.installed, to: entry.pending });
      continue;
    }
    out.write(`${describeResolution(entry)}\n`);
    try {
      const outcome = await invoke(updateExtension, { id: entry.id, version: entry.newestCompatible!.version }, createProgressReporter(out));
      if (!json) printSwitch(io, 'updated', outcome);
      results.push({ id: entry.id, outcome: outcome.outcome, from: entry.installed, to: entry.newestCompatible!.version });
    } catch (error) {
      // One refusal does not stop the others; the exit status says some failed.
      const data = SvcError.hasCode(error) ? { code: error.code, message: error.message } : { code: 'internal', message: String((error as Error).message ?? error) };
      out.write(`error ${data.code}: ${entry.id}: ${data.message}\n`);
      results.push({ id: entry.id, outcome: 'failed', from: entry.installed, to: entry.newestCompatible!.version, error: data });
    }
  }
  if (extensions.length === 0) out.write('no catalog extensions installed\n');
  if (json) printJson(io, { results });
  return results.some((result) => result.outcome === 'failed') ? 1 : 0;
}

function whyNot(reasons: ReadonlyArray<{ check: string; range: string; have: string }>): string {
  return `needs ${reasons.map((r) => `${r.check} ${r.range} (this host has ${r.have})`).join(', ')}`;
}

function permissionChange(change: { added: string[]; dropped: string[] }): string {
  const parts = [...change.added.map((p) => `+ ${p}`), ...change.dropped.map((p) => `- ${p}`)];
  return parts.length === 0 ? 'permissions unchanged' : `permissions: ${parts.join(', ')} (asks for confirmation)`;
}

function upToDate(entry: Outdated): string {
  const newer = entry.newest && entry.newest.version !== entry.newestCompatible?.version && !entry.newest.compatible ? `; ${entry.newest.version} ${whyNot(entry.newest.incompatible)}` : '';
  return `${entry.id} ${entry.installed} is the newest compatible version${newer}`;
}

function waiting(entry: Outdated): string {
  return `${entry.id} ${entry.pending} is staged and waits for your confirmation: svc ext enable ${entry.id}`;
}

function describeResolution(entry: Outdated): string {
  const target = entry.newestCompatible!;
  const cli = entry.cliVersion ? `, cli ${entry.cliVersion}` : '';
  return `${entry.id}: ${entry.installed} → ${target.version} (newest compatible with this svc, node ${process.versions.node}${cli}); ${permissionChange(target.permissions)}`;
}

function printOutdated(io: CliIo, entries: readonly Outdated[]): void {
  if (entries.length === 0) {
    io.stdout.write('no catalog extensions installed\n');
    return;
  }
  const header = ['ID', 'INSTALLED', 'COMPATIBLE', 'NEWEST', 'NOTE'];
  const rows = entries.map((entry) => [
    entry.id,
    entry.installed + (entry.pending ? ` (${entry.pending} waits)` : ''),
    entry.newestCompatible?.version ?? '-',
    entry.newest?.version ?? '-',
    [
      entry.updateAvailable ? `update available: svc ext update ${entry.id}` : 'up to date',
      entry.newest && !entry.newest.compatible ? `${entry.newest.version} ${whyNot(entry.newest.incompatible)}` : '',
      entry.cliVersion === null ? 'CLI not checked (not enabled with process:spawn)' : '',
    ]
      .filter(Boolean)
      .join('; '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) io.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
}

function single(args: string[], usage: string): { value: string; json: boolean } {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, usage);
  if (positionals.length !== 1) throw new UsageError(`expected exactly one argument\nusage: ${usage}`);
  return { value: positionals[0]!, json: values.json === true };
}

function printJson(io: CliIo, value: unknown): number {
  io.stdout.write(`${terminalJson(JSON.stringify(value, null, 2))}\n`);
  return 0;
}

function printSwitch(io: CliIo, verb: string, outcome: SwitchOutcome): void {
  const record = outcome.extension;
  if (outcome.outcome === 'discarded-pending') {
    io.stdout.write(`${terminalLine(`discarded the pending update ${record.id} ${outcome.discarded}; ${record.id} ${record.version} stays (${record.state})`)}\n`);
    return;
  }
  printWarnings(io, outcome.warnings);
  if (outcome.outcome === 'switched') {
    io.stdout.write(`${terminalLine(`${verb} ${record.id} ${outcome.from} → ${outcome.to} (${record.state})`)}\n`);
    if (record.state === 'enabled') io.stdout.write(`${terminalLine(`calls already running finish on ${outcome.from}; new calls use ${outcome.to}`)}\n`);
    return;
  }
  const { added, dropped } = outcome.permissions;
  if (added.length > 0 || dropped.length > 0) {
    io.stdout.write(`${terminalLine(`${record.id} ${outcome.pending} is staged, but its permissions differ from the granted ones:`)}\n`);
    for (const name of added) io.stdout.write(`${terminalLine(`  + ${name}`)}\n`);
    for (const name of dropped) io.stdout.write(`${terminalLine(`  - ${name}`)}\n`);
  }
  if (outcome.probe) {
    io.stdout.write(`${terminalLine(`${record.id} ${outcome.pending} is staged, but its CLI probe differs from the confirmed one:`)}\n`);
    io.stdout.write(`${terminalLine(`  confirmed: ${outcome.probe.confirmed}`)}\n${terminalLine(`  now:       ${outcome.probe.requested}`)}\n`);
  }
  io.stdout.write(`${terminalLine(`${record.id} ${outcome.current} keeps serving (${record.state}); review and switch with: svc ext enable ${record.id}`)}\n`);
}

function printWarnings(io: CliIo, warnings: ReadonlyArray<{ code: string; message: string; fix: string }>): void {
  for (const warning of warnings) {
    io.stdout.write(`${terminalLine(`warning ${warning.code}: ${warning.message}`)}${warning.fix ? `\n  fix: ${terminalLine(warning.fix)}` : ''}\n`);
  }
}

function describeTrust(trust: CatalogListing['signature']): string {
  if (trust.signed) return `signed by pinned key ${trust.keyId} (index version ${trust.version}, expires ${trust.expires})`;
  return 'unsigned: no catalog key is pinned on this host';
}

function printListing(io: CliIo, url: string, listing: CatalogListing): void {
  io.stdout.write(`${terminalLine(`catalog ${url}  ${describeTrust(listing.signature)}`)}\n`);
  if (listing.extensions.length === 0) {
    io.stdout.write('the catalog offers no extensions\n');
    return;
  }
  const header = ['ID', 'VERSION', 'INSTALLED', 'PERMISSIONS', 'COMPATIBILITY'];
  const rows: string[][] = [];
  for (const extension of listing.extensions) {
    for (const [i, version] of extension.versions.entries()) {
      const { svc, node, cli } = version.compatibility;
      const incompatible = [!version.compatible.svc && 'svc', !version.compatible.node && 'node'].filter(Boolean);
      rows.push([
        i === 0 ? extension.id : '',
        version.version,
        version.installed ?? (i === 0 && extension.installed && extension.installed.source !== 'catalog' ? `(${extension.installed.source})` : ''),
        version.permissions.join(', ') || '(none)',
        `svc ${svc}; node ${node}${cli ? `; cli ${cli}` : ''}${incompatible.length > 0 ? `  [incompatible: ${incompatible.join(', ')}]` : ''}`,
      ]);
    }
  }
  const cells = rows.map((row) => row.map(terminalLine));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  for (const row of [header, ...cells]) io.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
}
