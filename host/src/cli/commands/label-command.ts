import type { HostServices } from '../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';

export const LABEL_USAGE = `svc label create <name> --project <id|name> [--color #rrggbb]
svc label list --project <id|name> [--json]
svc label remove <label id>`;

export async function labelCommand(args: string[], io: CliIo, open: () => Promise<HostServices>): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create': {
      const { values, positionals } = parseCommandArgs(rest, { project: { type: 'string', short: 'p' }, color: { type: 'string' } }, LABEL_USAGE);
      if (positionals.length !== 1 || !values.project) throw new UsageError(`expected a name and --project\nusage:\n${LABEL_USAGE}`);
      const { domain } = await open();
      const project = domain.projects.resolve(values.project);
      const label = domain.labels.create({ projectId: project.id, name: positionals[0]!, color: values.color ?? null });
      io.stdout.write(`label ${label.id} "${label.name}" created in project "${project.name}"\n`);
      return 0;
    }
    case 'list': {
      const { values } = parseCommandArgs(rest, { project: { type: 'string', short: 'p' }, json: { type: 'boolean' } }, LABEL_USAGE);
      if (!values.project) throw new UsageError(`--project is required\nusage:\n${LABEL_USAGE}`);
      const { domain } = await open();
      const labels = domain.labels.list(domain.projects.resolve(values.project).id);
      if (values.json) io.stdout.write(`${JSON.stringify(labels, null, 2)}\n`);
      else if (labels.length === 0) io.stdout.write('no labels\n');
      else printTable(io, ['ID', 'NAME', 'COLOR'], labels.map((l) => [String(l.id), l.name, l.color ?? '']));
      return 0;
    }
    case 'remove': {
      const { positionals } = parseCommandArgs(rest, {}, LABEL_USAGE);
      if (positionals.length !== 1 || !/^\d+$/.test(positionals[0]!)) throw new UsageError(`expected a label id\nusage:\n${LABEL_USAGE}`);
      const { domain } = await open();
      domain.labels.remove(Number(positionals[0]));
      io.stdout.write(`label ${positionals[0]} removed\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown label command "${sub ?? ''}"\nusage:\n${LABEL_USAGE}`);
  }
}
