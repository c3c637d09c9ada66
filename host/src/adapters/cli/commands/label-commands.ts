// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import { createLabel } from '../../../operations/label/index.js';
import * as labelOperations from '../../../operations/label/index.js';
import { getProject } from '../../../operations/project/index.js';
import type { CliCommand } from '../cli-command.js';
import { printJson } from '../print-json.js';
import { singlePositional } from '../single-positional.js';
import { UsageError } from '../usage-error.js';
import { declaredCommands } from '../declared-commands.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

// `svc label create` names the project by name in its answer (a second operation); the other label
// commands are declared with their operations (the `cli` part).
export const LABEL_COMMANDS: CliCommand[] = declaredCommands(
  [labelOperations],
  [
    {
      group: 'label',
      name: 'create',
      operation: createLabel,
      positionals: '<name>',
      options: {
        project: { type: 'string', short: 'p', value: '<id|name>', description: 'the project it belongs to (required)' },
        color: { type: 'string', value: '#rrggbb', description: 'its colour on the board' },
      },
      json: true,
      examples: ['svc label create bug --project app --color "#cc0000"'],
      async run(run) {
        const project = text(run.values.project);
        if (!project) throw new UsageError('--project is required\nusage: svc label create <name> --project <id|name> [--color #rrggbb]');
        const label = await run.invoke(createLabel, { projectId: project, name: singlePositional(run, this, 'label name'), color: text(run.values.color) ?? null });
        if (run.json) printJson(run.io, label);
        else run.io.stdout.write(`label ${label.id} "${label.name}" created in project "${(await run.invoke(getProject, { id: label.projectId })).name}"\n`);
        return 0;
      },
    },
  ],
  ['create', 'list', 'show', 'update', 'remove'],
);
