import type { HostServices } from '../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';

export const WORKSPACE_USAGE = `svc workspace create <name> [--description <text>]
svc workspace list [--json]
svc workspace show <id|name> [--json]
svc workspace update <id|name> [--name <name>] [--description <text>]
svc workspace remove <id|name>`;

export async function workspaceCommand(args: string[], io: CliIo, open: () => Promise<HostServices>): Promise<number> {
  const [sub, ...rest] = args;
  const one = (positionals: string[]) => {
    if (positionals.length !== 1) throw new UsageError(`expected exactly one workspace\nusage:\n${WORKSPACE_USAGE}`);
    return positionals[0]!;
  };
  switch (sub) {
    case 'create': {
      const { values, positionals } = parseCommandArgs(rest, { description: { type: 'string' } }, WORKSPACE_USAGE);
      const record = (await open()).domain.workspaces.create({ name: one(positionals), description: values.description ?? '' });
      io.stdout.write(`workspace ${record.id} "${record.name}" created\n`);
      return 0;
    }
    case 'list': {
      const { values } = parseCommandArgs(rest, { json: { type: 'boolean' } }, WORKSPACE_USAGE);
      const records = (await open()).domain.workspaces.list();
      if (values.json) io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      else if (records.length === 0) io.stdout.write('no workspaces (create one with `svc workspace create <name>`)\n');
      else printTable(io, ['ID', 'NAME', 'DESCRIPTION'], records.map((r) => [String(r.id), r.name, r.description]));
      return 0;
    }
    case 'show': {
      const { values, positionals } = parseCommandArgs(rest, { json: { type: 'boolean' } }, WORKSPACE_USAGE);
      const services = await open();
      const record = services.domain.workspaces.resolve(one(positionals));
      const projects = services.domain.projects.list({ workspaceId: record.id });
      if (values.json) io.stdout.write(`${JSON.stringify({ ...record, projects }, null, 2)}\n`);
      else {
        io.stdout.write(`id           ${record.id}\nname         ${record.name}\ndescription  ${record.description}\n`);
        io.stdout.write(`projects     ${projects.map((p) => `${p.id} ${p.name}`).join(', ') || '(none)'}\n`);
      }
      return 0;
    }
    case 'update': {
      const { values, positionals } = parseCommandArgs(rest, { name: { type: 'string' }, description: { type: 'string' } }, WORKSPACE_USAGE);
      const services = await open();
      const current = services.domain.workspaces.resolve(one(positionals));
      const record = services.domain.workspaces.update(current.id, {
        ...(values.name !== undefined ? { name: values.name } : {}),
        ...(values.description !== undefined ? { description: values.description } : {}),
      });
      io.stdout.write(`workspace ${record.id} "${record.name}" updated\n`);
      return 0;
    }
    case 'remove': {
      const { positionals } = parseCommandArgs(rest, {}, WORKSPACE_USAGE);
      const services = await open();
      const current = services.domain.workspaces.resolve(one(positionals));
      services.domain.workspaces.remove(current.id);
      io.stdout.write(`workspace ${current.id} "${current.name}" removed\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown workspace command "${sub ?? ''}"\nusage:\n${WORKSPACE_USAGE}`);
  }
}
