// `svc execution list` and `show` are declared with their operations (the `cli` part).
import * as executionOperations from '../../../operations/execution/index.js';
import type { CliCommand } from '../cli-command.js';
import { declaredCommands } from '../declared-commands.js';

export const EXECUTION_COMMANDS: CliCommand[] = declaredCommands([executionOperations], [], ['list', 'show']);
