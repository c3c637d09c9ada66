// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import { listProjects } from '../../../operations/project/index.js';
import { getWorkspace } from '../../../operations/workspace/index.js';
import * as workspaceOperations from '../../../operations/workspace/index.js';
import type { CliCommand } from '../cli-command.js';
import { printJson } from '../print-json.js';
import { printFields } from '../print-fields.js';
import { singlePositional } from '../single-positional.js';
import { declaredCommands } from '../declared-commands.js';


// `svc workspace show` lists the workspace's projects beside it (a second operation); the other
// workspace commands are declared with their operations (the `cli` part).
export const WORKSPACE_COMMANDS: CliCommand[] = declaredCommands(
  [workspaceOperations],
  [
    {
      group: 'workspace',
      name: 'show',
      operation: getWorkspace,
      alsoUses: [listProjects],
      positionals: '<id|name>',
      options: {},
      json: true,
      examples: ['svc workspace show main'],
      async run(run) {
        const record = await run.invoke(getWorkspace, { id: singlePositional(run, this, 'workspace') });
        const { items: projects } = await run.invoke(listProjects, { workspaceId: record.id });
        if (run.json) printJson(run.io, { ...record, projects });
        else {
          printFields(run.io, [
            ['id', record.id],
            ['name', record.name],
            ['description', record.description, 'text'],
            ['projects', projects.map((p) => `${p.id} ${p.name}`).join(', ') || '(none)'],
          ]);
        }
        return 0;
      },
    },
  ],
  ['create', 'list', 'show', 'update', 'remove'],
);
