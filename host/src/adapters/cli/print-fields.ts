import type { CliIo } from './cli-io.js';
import { terminalLine, terminalText } from './terminal-text.js';

/** One `label value` line of a record; `text` values (a description) may span lines. */
export type Field = readonly [label: string, value: string | number | boolean, kind?: 'text'];

/**
 * A record as `svc task show` prints it: labels padded to one column, values escaped as outside text
 * (a title or description an agent wrote can hold nothing a terminal would act on).
 */
export function printFields(io: CliIo, fields: readonly Field[]): void {
  for (const [label, value, kind] of fields) {
    const shown = kind === 'text' ? terminalText(String(value)) : terminalLine(String(value));
    io.stdout.write(`${label.padEnd(12)} ${shown}\n`);
  }
}
