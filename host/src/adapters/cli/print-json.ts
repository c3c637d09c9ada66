import type { CliIo } from './cli-io.js';
import { terminalJson } from './terminal-text.js';

/** `--json` output: the value, indented, and nothing else on stdout. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${terminalJson(JSON.stringify(value, null, 2))}\n`);
}
