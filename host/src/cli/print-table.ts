import type { CliIo } from './cli-io.js';
import type { Style } from './style.js';

/** Left-aligned columns, as `svc ext list` prints them; the header in bold on a terminal. */
export function printTable(io: CliIo, header: string[], rows: string[][], style?: Style): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => (cell ?? '').padEnd(widths[i]!)).join('  ').trimEnd();
  io.stdout.write(`${style ? style.bold(line(header)) : line(header)}\n`);
  for (const row of rows) io.stdout.write(`${line(row)}\n`);
}
