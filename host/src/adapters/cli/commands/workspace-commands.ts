// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import { listProjects } from '../../../operations/project/index.js';
import { createWorkspace, deleteWorkspace, getWorkspace, listWorkspaces, updateWorkspace } from '../../../operations/workspace/index.js';
import * as workspaceOperations from '../../../operations/workspace/index.js';
import type { CliCommand } from '../cli-command.js';
import { printJson } from '../print-json.js';
import { printFields } from '../print-fields.js';
import { printTable } from '../print-table.js';
import { singlePositional } from '../single-positional.js';
import { declaredCommands } from '../operation-command.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

// Written by hand; an operation of the group that declares its command (`cli`) joins them after these.
export const WORKSPACE_COMMANDS: CliCommand[] = declaredCommands([workspaceOperations], [
  {
    group: 'workspace',
    name: 'create',
    operation: createWorkspace,
    positionals: '<name>',
    options: { description: { type: 'string', value: '<text>', description: 'what the workspace is for' } },
    json: true,
    examples: ['svc workspace create main --description "day job"'],
    async run(run) {
      const record = await run.invoke(createWorkspace, { name: singlePositional(run, this, 'workspace name'), description: text(run.values.description) ?? '' });
      if (run.json) printJson(run.io, record);
      else run.io.stdout.write(`workspace ${record.id} "${record.name}" created\n`);
      return 0;
    },
  },
  {
    group: 'workspace',
    name: 'list',
    operation: listWorkspaces,
    options: {},
    json: true,
    examples: ['svc workspace list'],
    async run(run) {
      const { items } = await run.invoke(listWorkspaces, {});
      if (run.json) printJson(run.io, items);
      else if (items.length === 0) run.io.stdout.write('no workspaces (create one with `svc workspace create <name>`)\n');
      else printTable(run.io, ['ID', 'NAME', 'DESCRIPTION'], items.map((r) => [String(r.id), r.name, r.description]), run.style);
      return 0;
    },
  },
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
  {
    group: 'workspace',
    name: 'update',
    operation: updateWorkspace,
    positionals: '<id|name>',
    options: {
      name: { type: 'string', value: '<name>', description: 'new name' },
      description: { type: 'string', value: '<text>', description: 'new description' },
    },
    json: true,
    examples: ['svc workspace update main --name work'],
    async run(run) {
      const record = await run.invoke(updateWorkspace, {
        id: singlePositional(run, this, 'workspace'),
        ...(text(run.values.name) !== undefined ? { name: text(run.values.name) } : {}),
        ...(text(run.values.description) !== undefined ? { description: text(run.values.description) } : {}),
      });
      if (run.json) printJson(run.io, record);
      else run.io.stdout.write(`workspace ${record.id} "${record.name}" updated\n`);
      return 0;
    },
  },
  {
    group: 'workspace',
    name: 'remove',
    operation: deleteWorkspace,
    positionals: '<id|name>',
    options: {},
    json: true,
    examples: ['svc workspace remove main'],
    async run(run) {
      const record = await run.invoke(deleteWorkspace, { id: singlePositional(run, this, 'workspace') });
      if (run.json) printJson(run.io, record);
      else run.io.stdout.write(`workspace ${record.id} "${record.name}" removed\n`);
      return 0;
    },
  },
]);
