// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import { createLabel, deleteLabel, getLabel, listLabels, updateLabel } from '../../../operations/label/index.js';
import * as labelOperations from '../../../operations/label/index.js';
import { getProject } from '../../../operations/project/index.js';
import type { CliCommand } from '../cli-command.js';
import { positiveId } from '../positive-id.js';
import { printJson } from '../print-json.js';
import { printTable } from '../print-table.js';
import { singlePositional } from '../single-positional.js';
import { UsageError } from '../usage-error.js';
import { declaredCommands } from '../operation-command.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

// Written by hand; an operation of the group that declares its command (`cli`) joins them after these.
export const LABEL_COMMANDS: CliCommand[] = declaredCommands([labelOperations], [
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
  {
    group: 'label',
    name: 'list',
    operation: listLabels,
    options: { project: { type: 'string', short: 'p', value: '<id|name>', description: 'the project (required)' } },
    json: true,
    examples: ['svc label list --project app'],
    async run(run) {
      const project = text(run.values.project);
      if (!project) throw new UsageError('--project is required\nusage: svc label list --project <id|name>');
      const { items } = await run.invoke(listLabels, { projectId: project });
      if (run.json) printJson(run.io, items);
      else if (items.length === 0) run.io.stdout.write('no labels\n');
      else printTable(run.io, ['ID', 'NAME', 'COLOR'], items.map((l) => [String(l.id), l.name, l.color ?? '']), run.style);
      return 0;
    },
  },
  {
    group: 'label',
    name: 'show',
    operation: getLabel,
    positionals: '<label id>',
    options: {},
    json: true,
    examples: ['svc label show 3'],
    async run(run) {
      const label = await run.invoke(getLabel, { id: positiveId(singlePositional(run, this, 'label id'), 'label id') });
      if (run.json) printJson(run.io, label);
      else run.io.stdout.write(`id       ${label.id}\nname     ${label.name}\nproject  ${label.projectId}\ncolor    ${label.color ?? '(none)'}\n`);
      return 0;
    },
  },
  {
    group: 'label',
    name: 'update',
    operation: updateLabel,
    positionals: '<label id>',
    options: {
      name: { type: 'string', value: '<name>', description: 'new name' },
      color: { type: 'string', value: '#rrggbb', description: 'new colour' },
      'no-color': { type: 'boolean', description: 'remove its colour' },
    },
    json: true,
    examples: ['svc label update 3 --name defect'],
    async run(run) {
      const label = await run.invoke(updateLabel, {
        id: positiveId(singlePositional(run, this, 'label id'), 'label id'),
        ...(text(run.values.name) !== undefined ? { name: text(run.values.name) } : {}),
        ...(text(run.values.color) !== undefined ? { color: text(run.values.color) } : {}),
        ...(run.values['no-color'] ? { color: null } : {}),
      });
      if (run.json) printJson(run.io, label);
      else run.io.stdout.write(`label ${label.id} "${label.name}" updated\n`);
      return 0;
    },
  },
  {
    group: 'label',
    name: 'remove',
    operation: deleteLabel,
    positionals: '<label id>',
    options: {},
    json: true,
    examples: ['svc label remove 3'],
    async run(run) {
      const label = await run.invoke(deleteLabel, { id: positiveId(singlePositional(run, this, 'label id'), 'label id') });
      if (run.json) printJson(run.io, label);
      else run.io.stdout.write(`label ${label.id} removed\n`);
      return 0;
    },
  },
]);
