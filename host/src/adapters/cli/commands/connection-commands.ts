// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import * as connectionOperations from '../../../operations/connection/index.js';
import type { CliCommand } from '../cli-command.js';
import { declaredCommands } from '../declared-commands.js';

// Every command of the group is one operation that declares it (`cli`).
export const CONNECTION_COMMANDS: CliCommand[] = declaredCommands([connectionOperations], [], ['add', 'list', 'show', 'set', 'remove']);
