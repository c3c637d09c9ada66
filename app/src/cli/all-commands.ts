import type { CliCommand } from '@svc-org/host/adapters/cli/cli-command';
import { HOST_PLUGINS } from '../host-plugins.js';
import { HOST_COMMAND_MODULES, placeCommandModules } from './command-table.js';

/**
 * Every command module as the host and its plugins declare them, in `svc --help` order: what
 * the build writes the names of (command-names.ts, scripts/generate-sources.mjs), and what the command table is checked against.
 */
export const DECLARED_COMMAND_MODULES = placeCommandModules(HOST_COMMAND_MODULES, HOST_PLUGINS.flatMap((plugin) => plugin.cli ?? []));

/** Every command of the `svc` executable, in the order `svc --help` lists them. */
export const ALL_COMMANDS: readonly CliCommand[] = (await Promise.all(DECLARED_COMMAND_MODULES.map((entry) => entry.load()))).flat();
