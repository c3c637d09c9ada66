// Knowledge (facts, notes, assets, search), the day's summary and to-do list, product groups and a
// task's history: the commands their operations declare (the `cli` part), and here the commands that
// run one operation with a fixed action (`fact set` and `fact delete` are two commands over one).
import * as daily from '../../../features/daily/index.js';
import * as knowledge from '../../../features/knowledge/index.js';
import * as products from '../../../features/products/index.js';
import * as taskHistory from '../../../features/task-history/index.js';
import type { CliCommand } from '../cli-command.js';
import { declaredCommands } from '../declared-commands.js';
import { operationCommand } from '../operation-command.js';

const { manageAssets, manageNotes, manageProjectFacts } = knowledge;
const project = { projectId: { resolve: 'project' } } as const;

export const KNOWLEDGE_COMMANDS: CliCommand[] = declaredCommands(
  [knowledge, daily, products, taskHistory],
  [
    operationCommand(manageProjectFacts, { command: 'fact set', description: 'Set a fact of a project: a short key and its value ("test command" = "pnpm test"), which later questions about the project are answered from; an existing key is replaced.', fixed: { action: 'set' }, positionals: ['key', '...value'], flags: project, examples: ['svc fact set deploy "merge to main; CI deploys" --project app'] }),
    operationCommand(manageProjectFacts, { command: 'fact delete', description: 'Delete a fact of a project by its key.', fixed: { action: 'delete' }, positionals: ['key'], omit: ['value'], flags: project, examples: ['svc fact delete deploy --project app'] }),
    operationCommand(manageNotes, { command: 'note create', description: 'Write a note in a project (a decision, a finding, hand-over text), optionally about one task (--task-id); questions and searches find it.', fixed: { action: 'create' }, positionals: ['title'], omit: ['noteId'], flags: project, examples: ['svc note create "Why we pinned libsql" --project app --body "…"'] }),
    operationCommand(manageNotes, { command: 'note update', description: 'Change a note\'s title or body.', fixed: { action: 'update' }, positionals: ['noteId'], omit: ['projectId', 'taskId'], examples: ['svc note update 4 --title "Why libsql stays pinned"'] }),
    operationCommand(manageNotes, { command: 'note delete', description: 'Delete a note.', fixed: { action: 'delete' }, positionals: ['noteId'], omit: ['projectId', 'taskId', 'title', 'body'], examples: ['svc note delete 4'] }),
    operationCommand(manageAssets, { command: 'asset add', description: 'Add an asset to a project: a named link, file or other resource it works with.', fixed: { action: 'add' }, positionals: ['name'], omit: ['assetId'], flags: project, examples: ['svc asset add design --project app --kind link --uri https://design.example/app'] }),
    operationCommand(manageAssets, { command: 'asset update', description: 'Change an asset\'s name, kind, location or description.', fixed: { action: 'update' }, positionals: ['assetId'], omit: ['projectId'], examples: ['svc asset update 2 --description "the current mock-ups"'] }),
    operationCommand(manageAssets, { command: 'asset remove', description: 'Remove an asset from a project.', fixed: { action: 'remove' }, positionals: ['assetId'], omit: ['projectId', 'name', 'kind', 'uri', 'description'], examples: ['svc asset remove 2'] }),
  ],
  [
    'search', 'knowledge ask', 'knowledge identify',
    'fact list', 'fact set', 'fact delete',
    'note list', 'note show', 'note create', 'note update', 'note delete',
    'asset list', 'asset show', 'asset add', 'asset update', 'asset remove',
    'daily summary', 'daily todo',
    'product-group list', 'product-group show', 'product-group create', 'product-group update', 'product-group delete',
    'task versions', 'task restore-version',
  ],
);
