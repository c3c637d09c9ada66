// What a plugin's command modules take from the CLI adapter (`@svc-org/host/adapters/cli`): the type
// of a command and the helpers that read its arguments and print its answer. The host's own command
// modules import these files directly.
export type { CliCommand, CliOption, CliRun, CliValues } from './cli-command.js';
export { streamOf, type CliIo, type CliOutput } from './cli-io.js';
export { confirm } from './confirm.js';
export { declaredCommands } from './declared-commands.js';
export { parseCommandArgs } from './parse-command-args.js';
export { positiveId } from './positive-id.js';
export { printJson } from './print-json.js';
export { printTable } from './print-table.js';
export { singlePositional } from './single-positional.js';
export { terminalLine, terminalText } from './terminal-text.js';
export { UsageError } from './usage-error.js';
