import { SvcError } from '@svc-org/ai-sdk';
import { checkSvcHomeMode } from '../../../platform/config/check-svc-home-mode.js';
import { formatPreflightReport } from '../../../features/extensions/preflight/index.js';
import type { PermissionPrompt } from '../../../features/extensions/permission-prompt.js';
import type { HostServices } from '../../../host-services.js';
import type { CliRun } from '../cli-command.js';
import type { CliIo } from '../cli-io.js';
import { enableExtension, getExtension, getExtensionPermissions, listExtensions, removeDevExtension } from '../../../operations/extension/index.js';
import { confirm } from '../confirm.js';
import { formatArgv } from '../../../platform/processes/index.js';
import { extCatalogCommand } from './ext-catalog-command.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';
import { IsolationModeSchema, type IsolationEnforcement } from '../../../features/extensions/runtime/index.js';
import { terminalJson, terminalLine, terminalText } from '../terminal-text.js';

/** `svc ext dev`'s usage line, the one its help page shows (app/src/cli/host-commands.ts). */
const EXT_DEV_USAGE = 'svc ext dev add <absolute dir> | remove <id>';

/** Runs an extension operation here (every one of them runs in any process). */
type Invoke = CliRun['invoke'];

export async function extCommand(args: string[], io: CliIo, open: () => Promise<HostServices>, signal: AbortSignal | undefined, invoke: Invoke): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list':
      return extList(rest, io, open, invoke);
    case 'dev':
      return extDev(rest, io, open, invoke);
    case 'enable':
      return extEnable(rest, io, invoke);
    case 'doctor':
      return extDoctor(rest, io, await open());
    case 'new': {
      const { extNew } = await import('./ext-new-command.js');
      return extNew(rest, io, open);
    }
    case 'pack': {
      const { extPack } = await import('./ext-pack-command.js');
      return extPack(rest, io);
    }
    case 'catalog':
    case 'outdated':
    case 'install':
    case 'update':
    case 'rollback':
    case 'uninstall':
      return extCatalogCommand(sub, rest, io, open, invoke, signal);
    default:
      throw new UsageError(`unknown ext command "${sub ?? ''}"\nrun \`svc ext --help\` for the list`);
  }
}

function one(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one argument\nusage: ${usage}`);
  return positionals[0]!;
}

async function extList(args: string[], io: CliIo, open: () => Promise<HostServices>, invoke: Invoke): Promise<number> {
  const { values } = parseCommandArgs(args, { json: { type: 'boolean' } }, 'svc ext list [--json]');
  if (values.json) {
    // The local view: where each extension lives on this machine, which no remote answer carries.
    const services = await open();
    const records = services.extensions.list();
    io.stdout.write(`${terminalJson(JSON.stringify(records.map((r) => ({ id: r.id, displayName: r.displayName, version: r.version, source: r.source, state: r.state, permissions: r.grantedPermissions, path: r.path, error: r.error, previousVersion: r.previousVersion, pendingVersion: r.pendingVersion, rolledBackFrom: r.rolledBackFrom, isolation: services.extensions.isolationOf(r) })), null, 2))}\n`);
    return 0;
  }
  const records = (await invoke(listExtensions, {})).items;
  if (records.length === 0) {
    io.stdout.write('no extensions registered (add one with `svc ext dev add <dir>`)\n');
    return 0;
  }
  const rows = records.map((r) => [
    r.id,
    r.version,
    r.source,
    r.state + (r.error ? ` (${r.error.code})` : '') + (r.pendingVersion ? ` (update to ${r.pendingVersion} waits: svc ext enable ${r.id})` : ''),
    isolationCell(r.isolation),
    r.displayName,
  ]);
  const header = ['ID', 'VERSION', 'SOURCE', 'STATE', 'ISOLATION', 'NAME'];
  const cells = rows.map((row) => row.map(terminalLine));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  for (const row of [header, ...cells]) io.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
  return 0;
}

/** `process` with what this machine cannot enforce for it, or `worker`. */
function isolationCell(isolation: IsolationEnforcement): string {
  // Only the process mode depends on a probe: a worker is always `probed`.
  if (!isolation.probed) return 'process (not yet probed)';
  return isolation.notEnforced.length > 0 && isolation.mode === 'process' ? `process (${isolation.notEnforced.join('; ')})` : isolation.mode;
}

async function extDev(args: string[], io: CliIo, open: () => Promise<HostServices>, invoke: Invoke): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'add') {
    const { positionals } = parseCommandArgs(rest, {}, 'svc ext dev add <absolute dir>');
    const dir = one(positionals, 'svc ext dev add <absolute dir>');
    // The local view: where it was registered from and the full preflight report.
    const { record, report } = await (await open()).extensions.devAdd(dir);
    io.stdout.write(`${terminalLine(`registered ${record.id} ${record.version} from ${record.path} (developer mode, ${record.state})`)}\n`);
    const failures = report.checks.filter((check) => !check.ok);
    // The registration stands (the folder is fixed in place); what comes next depends on the checks.
    if (failures.length > 0) {
      io.stdout.write(`preflight reports problems to fix before it can be enabled:\n${terminalText(formatPreflightReport(report))}`);
      io.stdout.write(`${terminalLine(`it cannot be enabled yet: fix the problems above, check again with svc ext doctor ${record.id}, then svc ext enable ${record.id}`)}\n`);
    } else {
      io.stdout.write(`${terminalLine(`enable it with: svc ext enable ${record.id}`)}\n`);
    }
    return 0;
  }
  if (action === 'remove') {
    const { positionals } = parseCommandArgs(rest, {}, 'svc ext dev remove <id>');
    const id = one(positionals, 'svc ext dev remove <id>');
    await invoke(removeDevExtension, { id });
    io.stdout.write(`${terminalLine(`removed ${id}`)}\n`);
    return 0;
  }
  throw new UsageError(`unknown ext dev command "${action ?? ''}"\nusage: ${EXT_DEV_USAGE}`);
}

export function formatPermissionPrompt(prompt: PermissionPrompt): string {
  const lines = [
    ...(prompt.currentVersion ? [`update ${prompt.id} ${prompt.currentVersion} → ${prompt.version}: the permissions change (${prompt.currentVersion} serves until you confirm)`] : []),
    `${prompt.displayName} (${prompt.id} ${prompt.version}) asks for these permissions:`,
  ];
  for (const permission of prompt.requested) {
    lines.push(`  ${permission.new ? '+' : ' '} ${permission.name.padEnd(20)} ${permission.description}`);
  }
  if (prompt.requested.length === 0) lines.push('  (none)');
  for (const dropped of prompt.dropped) lines.push(`  - ${dropped.padEnd(20)} no longer requested; will be removed`);
  if (prompt.requested.some((p) => p.new) && prompt.requested.some((p) => !p.new)) lines.push('  (+ marks permissions not granted before)');
  if (prompt.cli) {
    lines.push(`CLI: ${prompt.cli.command} (found by ${prompt.cli.source}; ${prompt.cli.ranBefore ? 'its version probe ran under the grant you confirmed before' : 'nothing has run yet'})`);
    lines.push(
      prompt.cli.probe
        ? `after you confirm, svc runs its version probe: ${formatArgv([prompt.cli.probe.command, ...prompt.cli.probe.args])}`
        : 'no version probe will run (process:spawn is not requested)',
    );
    if (prompt.cli.previousProbe) lines.push(`  the probe changed: you confirmed ${prompt.cli.previousProbe} before`);
  }
  if (prompt.integrationFiles && prompt.integrationFiles.length > 0) {
    lines.push(`its integrations may read and write: ${prompt.integrationFiles.join(', ')}`);
  }
  if (prompt.sessions) lines.push(prompt.sessions);
  if (prompt.isolation) {
    lines.push(`runs as: ${prompt.isolation.runsAs}`);
    lines.push(`  enforces:     ${prompt.isolation.enforces.join('; ')}`);
    lines.push(`  not enforced: ${prompt.isolation.notEnforced.join('; ') || '(nothing listed)'}`);
  }
  lines.push(...prompt.notice);
  // Each entry is one line: what a manifest, a catalog or the disk supplied cannot break it.
  return `${lines.map(terminalLine).join('\n')}\n`;
}

async function extEnable(args: string[], io: CliIo, invoke: Invoke): Promise<number> {
  const usage = 'svc ext enable <id> [--yes] [--connection <name>] [--isolation process|worker] [--json]';
  const { values, positionals } = parseCommandArgs(
    args,
    { yes: { type: 'boolean', short: 'y' }, connection: { type: 'string' }, isolation: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  const id = one(positionals, usage);
  const isolation = values.isolation === undefined ? undefined : IsolationModeSchema.safeParse(values.isolation);
  if (isolation && !isolation.success) throw new UsageError(`--isolation must be process or worker (got "${values.isolation}")\nusage: ${usage}`);
  const options = {
    ...(typeof values.connection === 'string' ? { connection: values.connection } : {}),
    ...(isolation ? { isolation: isolation.data } : {}),
  };
  const before = await invoke(getExtension, { id });
  // Nothing of the extension runs until the person confirmed: the prompt names the exact probe.
  const prompt = await invoke(getExtensionPermissions, { id, ...options });
  // With --json, stdout carries only the result: the prompt goes to stderr.
  const out = values.json ? io.stderr : io.stdout;
  out.write(formatPermissionPrompt(prompt));
  if (values.yes) out.write('confirmed with --yes\n');
  else if (!(await confirm(io, `Grant ${prompt.requested.length === 1 ? 'this permission' : 'these permissions'} and enable ${prompt.id}?`))) {
    throw new SvcError({ code: 'confirmation_declined', message: `the permissions of ${id} were not confirmed; it stays ${before.state}` });
  }
  // The exact list shown; should the manifest change meanwhile, enable_extension refuses it.
  const record = await invoke(enableExtension, { id, permissions: prompt.requested.map((permission) => permission.name), ...options });
  if (values.json) {
    io.stdout.write(`${terminalJson(JSON.stringify({ id: record.id, version: record.version, state: record.state, permissions: record.permissions, isolation: record.isolation }, null, 2))}\n`);
    return 0;
  }
  io.stdout.write(`${terminalLine(`${record.id} enabled with ${record.permissions.length > 0 ? record.permissions.join(', ') : 'no permissions'} (isolation: ${record.isolation.mode})`)}\n`);
  return 0;
}

async function extDoctor(args: string[], io: CliIo, services: HostServices): Promise<number> {
  const usage = 'svc ext doctor <id> [--connection <name>] [--json]';
  const { values, positionals } = parseCommandArgs(args, { connection: { type: 'string' }, json: { type: 'boolean' } }, usage);
  const id = one(positionals, usage);
  const report = await services.extensions.doctor(id, values.connection);
  const record = services.registry.get(id);
  const home = checkSvcHomeMode(services.svcHome);
  const crashes = services.extensions.crashes(id);
  if (values.json) {
    io.stdout.write(
      `${terminalJson(JSON.stringify(
        {
          id: record.id,
          version: record.version,
          source: record.source,
          state: record.state,
          ok: report.ok,
          probed: report.probed,
          checks: report.checks,
          skipped: report.skipped,
          ...(report.cli ? { cli: report.cli } : {}),
          ...(record.error ? { error: record.error } : {}),
          isolation: services.extensions.isolationOf(record),
          crashes,
          ...(home ? { warnings: [home] } : {}),
        },
        null,
        2,
      ))}\n`,
    );
  } else {
    io.stdout.write(`${terminalLine(`${record.id} ${record.version} (${record.source}, ${record.state}) at ${record.path}`)}\n`);
    io.stdout.write(terminalText(formatPreflightReport(report)));
    if (!report.probed && report.cli) {
      io.stdout.write(`${terminalLine(`  (the version probe runs only once ${id} is enabled with process:spawn granted)`)}\n`);
    }
    if (record.error?.code === 'crash_loop') io.stdout.write(`${terminalLine(`quarantined (crash_loop): ${record.error.message}`)}\n  fix: find the cause below, then svc ext enable ${id}\n`);
    if (crashes.length > 0) {
      io.stdout.write(`crashes (newest first):\n`);
      for (const crash of crashes) io.stdout.write(`${terminalLine(`  ${crash.at}  ${crash.method.padEnd(20)} ${crash.isolation.padEnd(8)} ${crash.reason}`)}\n`);
    }
    if (home) io.stdout.write(`${terminalLine(`warning ${home.code}: ${home.message}`)}\n  fix: ${terminalLine(home.fix)}\n`);
  }
  if (!report.ok) {
    const failure = report.checks.find((check) => !check.ok);
    throw new SvcError({ code: failure && !failure.ok ? failure.code : 'preflight_failed', message: 'preflight failed (see above)' });
  }
  return 0;
}
