// Knowledge (facts, notes, assets, search), the day's summary and to-do list, product groups and a
// task's history: the commands their operations declare (the `cli` part), and here the commands that
// run one operation with a fixed action (`fact set` and `fact delete` are two commands over one).
import * as daily from '../../../features/daily/index.js';
import * as knowledge from '../../../features/knowledge/index.js';
import * as products from '../../../features/products/index.js';
import * as taskHistory from '../../../features/task-history/index.js';
import type { CliCommand } from '../cli-command.js';
import { declaredCommands, operationCommand } from '../operation-command.js';

const { manageAssets, manageNotes, manageProjectFacts } = knowledge;
const project = { projectId: 'project' } as const;

export const KNOWLEDGE_COMMANDS: CliCommand[] = declaredCommands(
  [knowledge, daily, products, taskHistory],
  [
    operationCommand({ group: 'fact', name: 'set', description: 'Set a fact of a project: a short key and its value ("test command" = "pnpm test"), which later questions about the project are answered from; an existing key is replaced.', operation: manageProjectFacts, fixed: { action: 'set' }, positionals: ['key', '...value'], resolve: project, examples: ['svc fact set deploy "merge to main; CI deploys" --project app'] }),
    operationCommand({ group: 'fact', name: 'delete', description: 'Delete a fact of a project by its key.', operation: manageProjectFacts, fixed: { action: 'delete' }, positionals: ['key'], omit: ['value'], resolve: project, examples: ['svc fact delete deploy --project app'] }),
    operationCommand({ group: 'note', name: 'create', description: 'Write a note in a project (a decision, a finding, hand-over text), optionally about one task (--task-id); questions and searches find it.', operation: manageNotes, fixed: { action: 'create' }, positionals: ['title'], omit: ['noteId'], resolve: project, examples: ['svc note create "Why we pinned libsql" --project app --body "…"'] }),
    operationCommand({ group: 'note', name: 'update', description: 'Change a note\'s title or body.', operation: manageNotes, fixed: { action: 'update' }, positionals: ['noteId'], omit: ['projectId', 'taskId'], examples: ['svc note update 4 --title "Why libsql stays pinned"'] }),
    operationCommand({ group: 'note', name: 'delete', description: 'Delete a note.', operation: manageNotes, fixed: { action: 'delete' }, positionals: ['noteId'], omit: ['projectId', 'taskId', 'title', 'body'], examples: ['svc note delete 4'] }),
    operationCommand({ group: 'asset', name: 'add', description: 'Add an asset to a project: a named link, file or other resource it works with.', operation: manageAssets, fixed: { action: 'add' }, positionals: ['name'], omit: ['assetId'], resolve: project, examples: ['svc asset add design --project app --kind link --uri https://design.example/app'] }),
    operationCommand({ group: 'asset', name: 'update', description: 'Change an asset\'s name, kind, location or description.', operation: manageAssets, fixed: { action: 'update' }, positionals: ['assetId'], omit: ['projectId'], examples: ['svc asset update 2 --description "the current mock-ups"'] }),
    operationCommand({ group: 'asset', name: 'remove', description: 'Remove an asset from a project.', operation: manageAssets, fixed: { action: 'remove' }, positionals: ['assetId'], omit: ['projectId', 'name', 'kind', 'uri', 'description'], examples: ['svc asset remove 2'] }),
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
