import { resolve } from 'node:path';
// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import { listLabels } from '../../../operations/label/index.js';
import { createProject, getProject } from '../../../operations/project/index.js';
import * as projectOperations from '../../../operations/project/index.js';
import { getWorkspace } from '../../../operations/workspace/index.js';
import { getTaskDefaults, setTaskDefaults } from '../../../features/task-defaults/index.js';
import type { CliCommand } from '../cli-command.js';
import { printJson } from '../print-json.js';
import { printFields } from '../print-fields.js';
import { singlePositional } from '../single-positional.js';
import { UsageError } from '../usage-error.js';
import { declaredCommands } from '../declared-commands.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

// `svc project create` and `show` answer with a second operation (the workspace's name, the project's
// labels) and `defaults` reads or sets; the other project commands are declared with their operations.
export const PROJECT_COMMANDS: CliCommand[] = declaredCommands(
  [projectOperations],
  [
    {
      group: 'project',
      name: 'create',
      operation: createProject,
      positionals: '<name>',
      options: {
        workspace: { type: 'string', short: 'w', value: '<id|name>', description: 'the workspace it belongs to (required)' },
        repo: { type: 'string', value: '<folder>', description: 'the repository folder task terminals run in (required)' },
        description: { type: 'string', value: '<text>', description: 'what the project is' },
      },
      json: true,
      examples: ['svc project create app --workspace main --repo ~/src/app'],
      async run(run) {
        const workspace = text(run.values.workspace);
        const repo = text(run.values.repo);
        if (!workspace || !repo) throw new UsageError('--workspace and --repo are required\nusage: svc project create <name> --workspace <id|name> --repo <folder>');
        const record = await run.invoke(createProject, {
          workspaceId: workspace,
          name: singlePositional(run, this, 'project name'),
          // A folder typed on the command line is relative to where the user stands.
          repoPath: resolve(run.io.cwd, repo),
          description: text(run.values.description) ?? '',
        });
        if (run.json) printJson(run.io, record);
        else {
          const ws = await run.invoke(getWorkspace, { id: record.workspaceId });
          run.io.stdout.write(`project ${record.id} "${record.name}" created in workspace "${ws.name}" (${record.repoPath})\n`);
        }
        return 0;
      },
    },
    {
      group: 'project',
      name: 'show',
      operation: getProject,
      alsoUses: [listLabels],
      positionals: '<id|name>',
      options: {},
      json: true,
      examples: ['svc project show app'],
      async run(run) {
        const record = await run.invoke(getProject, { id: singlePositional(run, this, 'project') });
        const { items: labels } = await run.invoke(listLabels, { projectId: record.id });
        if (run.json) printJson(run.io, { ...record, labels });
        else {
          printFields(run.io, [
            ['id', record.id],
            ['name', record.name],
            ['workspace', record.workspaceId],
            ['repository', record.repoPath],
            ['description', record.description, 'text'],
            ['labels', labels.map((l) => l.name).join(', ') || '(none)'],
          ]);
        }
        return 0;
      },
    },
    {
      group: 'project',
      name: 'defaults',
      operation: setTaskDefaults,
      alsoUses: [getTaskDefaults],
      positionals: '<project>',
      options: {
        connection: { type: 'string', value: '<name|none>', description: "the connection its tasks start with when none is named, and its Workbench's when events start it; none clears it" },
        model: { type: 'string', value: '<model|none>', description: 'the model passed with it; none clears it' },
      },
      json: true,
      examples: ['svc project defaults app', 'svc project defaults app --connection work-claude'],
      async run(run) {
        const projectId = singlePositional(run, this, 'project');
        const connection = text(run.values.connection);
        const model = text(run.values.model);
        const cleared = (value: string) => (value === 'none' ? null : value);
        const record =
          connection === undefined && model === undefined
            ? await run.invoke(getTaskDefaults, { projectId })
            : await run.invoke(setTaskDefaults, {
                projectId,
                ...(connection !== undefined ? { connection: cleared(connection) } : {}),
                ...(model !== undefined ? { model: cleared(model) } : {}),
              });
        if (run.json) printJson(run.io, record);
        else run.io.stdout.write(`connection: ${record.connection ?? '(none)'}\nmodel: ${record.model ?? '(none)'}\n`);
        return 0;
      },
    },
  ],
  ['create', 'list', 'show', 'update', 'remove', 'defaults'],
);
