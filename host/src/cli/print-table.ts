import type { CliIo } from './cli-io.js';

/** Left-aligned columns, as `svc ext list` prints them. */
export function printTable(io: CliIo, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  for (const row of [header, ...rows]) io.stdout.write(`${row.map((cell, i) => (cell ?? '').padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
}
