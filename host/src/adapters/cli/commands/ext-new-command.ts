import { DEFAULT_PUBLISHER, INSTALL_COMMAND, scaffoldProvider } from '../../../features/extensions/scaffold/index.js';
import type { HostServices } from '../../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

export const EXT_NEW_USAGE = `svc ext new <name> [--dir <parent folder>] [--publisher <publisher>] [--command <cli executable>]`;

/**
 * Scaffolds a provider package at <parent>/<name> and prints the commands that take it to a query.
 * It needs no host services: nothing is registered until the author runs `svc ext dev add`.
 */
export async function extNew(args: string[], io: CliIo, _open: () => Promise<HostServices>): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      dir: { type: 'string' },
      publisher: { type: 'string' },
      command: { type: 'string' },
    },
    EXT_NEW_USAGE,
  );
  if (positionals.length !== 1) throw new UsageError(`expected exactly one name\nusage: ${EXT_NEW_USAGE}`);
  const result = await scaffoldProvider({
    name: positionals[0]!,
    dir: values.dir,
    publisher: values.publisher ?? DEFAULT_PUBLISHER,
    command: values.command,
    cwd: io.cwd,
  });
  io.stdout.write(`created ${result.names.id} (${result.names.packageName}) in ${result.dir}\n`);
  for (const file of result.files) io.stdout.write(`  ${file}\n`);
  io.stdout.write(`\nnext steps:\n${result.nextSteps.map((step) => `  ${step}\n`).join('')}`);
  if (result.home === 'workspace') {
    io.stdout.write(
      result.lockfileRecorded
        ? `\nIt is a package of this repository's workspace, like the official providers, and its entry was added to ${result.lockfileRecorded}: run \`${result.lockfileCommand}\` at the repository root once (it links the package; no network needed), and commit the lockfile with the package.\n`
        : `\nIt is a package of this repository's workspace, like the official providers: run \`${result.lockfileCommand}\` at the repository root once to record it in pnpm-lock.yaml, and commit the lockfile with the package.\n`,
    );
    io.stdout.write(`For the catalog, add extensions/catalog/sources/${positionals[0]!}.json (see CONTRIBUTING.md).\n`);
    io.stdout.write(`Then adapt src/${result.names.adapterModule}.ts (the ADAPT comments) to the real ${result.names.command} CLI.\n`);
    return 0;
  }
  io.stdout.write(
    result.files.includes('pnpm-lock.yaml')
      ? `\nIts pnpm-lock.yaml pins the dev tools svc was installed with, so \`${INSTALL_COMMAND}\` needs no network.\n`
      : `\nsvc has no pnpm-lock.yaml to pin the dev tools with; if \`${INSTALL_COMMAND}\` cannot resolve them, run \`pnpm install\`.\n`,
  );
  io.stdout.write(`Then adapt src/${result.names.adapterModule}.ts (the ADAPT comments) to the real ${result.names.command} CLI.\n`);
  return 0;
}
