import type { CliIo } from './cli-io.js';
import type { Style } from './style.js';
import { terminalLine } from './terminal-text.js';

/** Left-aligned columns, as `svc ext list` prints them; the header in bold on a terminal. */
export function printTable(io: CliIo, header: string[], cells: string[][], style?: Style): void {
  // A cell is one line of text, whatever it holds.
  const rows = cells.map((row) => row.map((cell) => terminalLine(cell ?? '')));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => (cell ?? '').padEnd(widths[i]!)).join('  ').trimEnd();
  io.stdout.write(`${style ? style.bold(line(header)) : line(header)}\n`);
  for (const row of rows) io.stdout.write(`${line(row)}\n`);
}
