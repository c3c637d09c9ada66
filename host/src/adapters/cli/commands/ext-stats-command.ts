// `svc ext stats [<id>] [--json]`: how running providers behave (get_extension_stats).
import type { z } from 'zod';
import { getExtensionStats, type ExtensionStatsSchema } from '../../../operations/extension/index.js';
import type { CliRun } from '../cli-command.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

type Stats = z.output<typeof ExtensionStatsSchema>;

export const EXT_STATS_USAGE = 'svc ext stats [<id>] [--json]';

export async function extStats(args: string[], io: CliIo, invoke: CliRun['invoke']): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, EXT_STATS_USAGE);
  if (positionals.length > 1) throw new UsageError(`expected at most one extension id\nusage: ${EXT_STATS_USAGE}`);
  const { items } = await invoke(getExtensionStats, positionals[0] === undefined ? {} : { id: positionals[0] });
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ items }, null, 2)}\n`);
    return 0;
  }
  if (items.length === 0) io.stdout.write('no extensions registered\n');
  io.stdout.write(items.map(formatStats).join('\n'));
  return 0;
}

const ms = (value: number | null) => (value === null ? '-' : `${value} ms`);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function formatStats(stats: Stats): string {
  const lines = [`${stats.id} ${stats.version}  ${stats.state}${stats.quarantined ? ' (quarantined: crash loop)' : ''}  ${stats.isolation}  last 30 days (since ${stats.since.slice(0, 10)})`];
  lines.push(
    stats.activation
      ? `  activation: last ${ms(stats.activation.lastMs)}, mean ${ms(stats.activation.meanMs)}, max ${ms(stats.activation.maxMs)} (${stats.activation.count} cold load${stats.activation.count === 1 ? '' : 's'})`
      : '  activation: not loaded yet',
  );
  if (stats.methods.length === 0) lines.push('  calls: none');
  else {
    const header = ['METHOD', 'CALLS', 'ERRORS', 'CANCELLED', 'DEADLINES', 'CRASHES', 'P50', 'P95', 'MAX'];
    const rows = stats.methods.map((m) => [m.method, String(m.calls), String(m.errors), String(m.cancelled), String(m.timeouts), String(m.crashes), ms(m.p50Ms), ms(m.p95Ms), ms(m.maxMs)]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    for (const row of [header, ...rows]) lines.push(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}`);
  }
  const codes = Object.entries(stats.errorsByCode);
  lines.push(`  errors by code: ${codes.length === 0 ? 'none' : codes.map(([code, n]) => `${code} ${n}`).join(', ')}`);
  lines.push(`  cancellations ${stats.cancellations}, deadlines hit ${stats.deadlines}, crashes ${stats.crashes}`);
  if (stats.memory) {
    lines.push(`  memory: heap ${mib(stats.memory.heapUsedBytes)}${stats.memory.rssBytes === null ? '' : `, process RSS ${mib(stats.memory.rssBytes)}`} (${stats.memory.at})`);
  }
  lines.push('  permissions:');
  if (stats.permissions.length === 0) lines.push('    (none granted)');
  for (const p of stats.permissions) {
    lines.push(`    ${p.permission.padEnd(20)} ${p.neverUsed ? 'never used (in the last 30 days)' : `${p.calls} call${p.calls === 1 ? '' : 's'}, last ${p.lastAt}`}`);
  }
  if (stats.recentErrors.length > 0) {
    lines.push('  last errors:');
    for (const e of stats.recentErrors) lines.push(`    ${e.at}  ${e.method}  ${e.code}: ${e.message}`);
  }
  return `${lines.join('\n')}\n`;
}
