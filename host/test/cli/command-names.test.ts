// The command table's names (command-names.ts, which the build writes: scripts/generate-sources.mjs) are the commands the
// modules declare, hand-written or derived from their operations' `cli` part: `svc` finds a command
// by its name without loading every module. Every declaration that says its CLI command has it.
import { describe, expect, test } from 'vitest';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { ALL_COMMANDS, DECLARED_COMMAND_MODULES } from '@svc-org/app/cli/all-commands';
import { COMMAND_DECLARATIONS } from '@svc-org/app/cli/command-names';
import { COMMAND_MODULES, loadAllCommands, loadCommand, placeCommandModules } from '@svc-org/app/cli/command-table';
import * as connection from '../../src/operations/connection/index.js';
import * as execution from '../../src/operations/execution/index.js';
import * as extension from '../../src/operations/extension/index.js';
import * as hook from '../../src/operations/hook/index.js';
import * as label from '../../src/operations/label/index.js';
import * as project from '../../src/operations/project/index.js';
import * as task from '../../src/operations/task/index.js';
import * as terminal from '../../src/operations/terminal/index.js';
import * as workspace from '../../src/operations/workspace/index.js';
import * as worktree from '../../src/operations/worktree/index.js';

const key = (command: { group: string; name: string }) => `${command.group} ${command.name}`.trim();

describe('the command table', () => {
  test("names each module's commands as the module declares them, in the order of svc --help", async () => {
    const loaded = await Promise.all(COMMAND_MODULES.map((module) => module.load()));
    loaded.forEach((commands, index) => {
      // Drift: run `pnpm build` (or `pnpm generate`), which writes app/src/cli/command-names.ts from the modules.
      expect(COMMAND_MODULES[index]!.commands, COMMAND_MODULES[index]!.module).toEqual(commands.map(key));
    });
    expect(await loadAllCommands()).toEqual(ALL_COMMANDS);
    // The host's modules and the plugins', in the order they declare.
    expect(COMMAND_MODULES.map((module) => module.module)).toEqual(DECLARED_COMMAND_MODULES.map((module) => module.module));
  });

  test("a command derived from a core operation's cli part is loaded from the file that declares it, as its module declares it", async () => {
    const derived = ALL_COMMANDS.filter((command) => command.operation?.cli?.command === key(command));
    expect(Object.keys(COMMAND_DECLARATIONS)).toContain('task list');
    for (const [name, load] of Object.entries(COMMAND_DECLARATIONS)) {
      const declared = derived.find((command) => key(command) === name);
      expect(declared?.operation, name).toBe(await load());
      const [group, ...rest] = name.split(' ');
      const loaded = await loadCommand(group!, rest.join(' '));
      // The same command: its flags, help and printing; `run` is a closure of each derivation.
      expect({ ...loaded, run: undefined }, name).toEqual({ ...declared, run: undefined });
    }
    // Every core group's derived command is there (the features' and plugins' are reached through their modules).
    const core = new Set<unknown>([connection, execution, extension, hook, label, project, task, terminal, workspace, worktree].flatMap((group) => Object.values(group)));
    expect(derived.filter((command) => core.has(command.operation)).map(key).filter((name) => !(name in COMMAND_DECLARATIONS))).toEqual([]);
  });

  test("a plugin's module goes after the one it names, after the plugin modules placed there before it", () => {
    const load = async () => [];
    const host = [{ module: 'a', load }, { module: 'b', load }];
    const placed = placeCommandModules(host, [
      { module: 'p1', after: 'a', load },
      { module: 'p2', after: 'a', load },
      { module: 'p3', after: 'p1', load },
      { module: 'p4', after: 'b', load },
    ]);
    expect(placed.map((module) => module.module)).toEqual(['a', 'p1', 'p3', 'p2', 'b', 'p4']);
    expect(() => placeCommandModules(host, [{ module: 'p', after: 'nowhere', load }])).toThrow(/follows nowhere/);
    expect(() => placeCommandModules(host, [{ module: 'b', after: 'a', load }])).toThrow(/two command modules are named b/);
  });

  test('every operation that declares its CLI command is that command, once, in the table', () => {
    const declared = ALL_OPERATIONS.list().filter((operation) => operation.cli);
    expect(declared.map((operation) => operation.name)).toContain('list_tasks');
    for (const operation of declared) {
      const commands = ALL_COMMANDS.filter((command) => key(command) === operation.cli!.command);
      expect(commands.map((command) => command.operation?.name), operation.cli!.command).toEqual([operation.name]);
    }
  });
});
