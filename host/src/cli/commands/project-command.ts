import { resolve } from 'node:path';
import type { HostServices } from '../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';

export const PROJECT_USAGE = `svc project create <name> --workspace <id|name> --repo <folder> [--description <text>]
svc project list [--workspace <id|name>] [--json]
svc project show <id|name> [--json]
svc project update <id|name> [--name <name>] [--repo <folder>] [--description <text>]
svc project remove <id|name>`;

export async function projectCommand(args: string[], io: CliIo, open: () => Promise<HostServices>): Promise<number> {
  const [sub, ...rest] = args;
  const one = (positionals: string[]) => {
    if (positionals.length !== 1) throw new UsageError(`expected exactly one project\nusage:\n${PROJECT_USAGE}`);
    return positionals[0]!;
  };
  switch (sub) {
    case 'create': {
      const { values, positionals } = parseCommandArgs(
        rest,
        { workspace: { type: 'string', short: 'w' }, repo: { type: 'string' }, description: { type: 'string' } },
        PROJECT_USAGE,
      );
      if (!values.workspace || !values.repo) throw new UsageError(`--workspace and --repo are required\nusage:\n${PROJECT_USAGE}`);
      const { domain } = await open();
      const workspace = domain.workspaces.resolve(values.workspace);
      const record = domain.projects.create({
        workspaceId: workspace.id,
        name: one(positionals),
        // A folder typed on the command line is relative to where the user stands.
        repoPath: resolve(io.cwd, values.repo),
        description: values.description ?? '',
      });
      io.stdout.write(`project ${record.id} "${record.name}" created in workspace "${workspace.name}" (${record.repoPath})\n`);
      return 0;
    }
    case 'list': {
      const { values } = parseCommandArgs(rest, { workspace: { type: 'string', short: 'w' }, json: { type: 'boolean' } }, PROJECT_USAGE);
      const { domain } = await open();
      const workspaceId = values.workspace ? domain.workspaces.resolve(values.workspace).id : undefined;
      const records = domain.projects.list(workspaceId === undefined ? {} : { workspaceId });
      if (values.json) io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      else if (records.length === 0) io.stdout.write('no projects (create one with `svc project create <name> --workspace <ws> --repo <folder>`)\n');
      else printTable(io, ['ID', 'WORKSPACE', 'NAME', 'REPOSITORY'], records.map((r) => [String(r.id), String(r.workspaceId), r.name, r.repoPath]));
      return 0;
    }
    case 'show': {
      const { values, positionals } = parseCommandArgs(rest, { json: { type: 'boolean' } }, PROJECT_USAGE);
      const { domain } = await open();
      const record = domain.projects.resolve(one(positionals));
      const labels = domain.labels.list(record.id);
      if (values.json) io.stdout.write(`${JSON.stringify({ ...record, labels }, null, 2)}\n`);
      else {
        io.stdout.write(`id           ${record.id}\nname         ${record.name}\nworkspace    ${record.workspaceId}\n`);
        io.stdout.write(`repository   ${record.repoPath}\ndescription  ${record.description}\n`);
        io.stdout.write(`labels       ${labels.map((l) => l.name).join(', ') || '(none)'}\n`);
      }
      return 0;
    }
    case 'update': {
      const { values, positionals } = parseCommandArgs(
        rest,
        { name: { type: 'string' }, repo: { type: 'string' }, description: { type: 'string' } },
        PROJECT_USAGE,
      );
      const { domain } = await open();
      const current = domain.projects.resolve(one(positionals));
      const record = domain.projects.update(current.id, {
        ...(values.name !== undefined ? { name: values.name } : {}),
        ...(values.repo !== undefined ? { repoPath: resolve(io.cwd, values.repo) } : {}),
        ...(values.description !== undefined ? { description: values.description } : {}),
      });
      io.stdout.write(`project ${record.id} "${record.name}" updated\n`);
      return 0;
    }
    case 'remove': {
      const { positionals } = parseCommandArgs(rest, {}, PROJECT_USAGE);
      const { domain } = await open();
      const current = domain.projects.resolve(one(positionals));
      domain.projects.remove(current.id);
      io.stdout.write(`project ${current.id} "${current.name}" removed\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown project command "${sub ?? ''}"\nusage:\n${PROJECT_USAGE}`);
  }
}
