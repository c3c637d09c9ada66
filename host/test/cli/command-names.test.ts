// The command table's names (command-names.ts, which the build writes: scripts/generate-sources.mjs) are the commands the
// modules declare, hand-written or derived from their operations' `cli` part: `svc` finds a command
// by its name without loading every module. Every declaration that says its CLI command has it.
import { describe, expect, test } from 'vitest';
import { ALL_OPERATIONS } from '@svc-org/app/all-operations';
import { ALL_COMMANDS, DECLARED_COMMAND_MODULES } from '@svc-org/app/cli/all-commands';
import { COMMAND_MODULES, loadAllCommands, placeCommandModules } from '@svc-org/app/cli/command-table';

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
