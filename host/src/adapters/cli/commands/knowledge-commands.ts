// Knowledge (facts, notes, assets, search), the day's summary and to-do list, product groups and a
// task's history: commands generated from their operations' declarations (operation-command.ts).
import { dailySummary, dailyTodo } from '../../../features/daily/index.js';
import { askProjectKnowledge, getAsset, getNote, globalSearch, identifyProject, listAssets, listNotes, listProjectFacts, manageAssets, manageNotes, manageProjectFacts } from '../../../features/knowledge/index.js';
import { createProductGroup, deleteProductGroup, getProductGroup, listProductGroups, updateProductGroup } from '../../../features/products/index.js';
import { listTaskVersions, restoreTaskVersion } from '../../../features/task-history/index.js';
import type { CliCommand } from '../cli-command.js';
import { operationCommand } from '../operation-command.js';

const project = { projectId: 'project' } as const;
const scope = { projectId: 'project', workspaceId: 'workspace' } as const;

export const KNOWLEDGE_COMMANDS: CliCommand[] = [
  operationCommand({ group: 'search', name: '', operation: globalSearch, positionals: ['...query'], resolve: scope, examples: ['svc search "login timeout" --project app --kinds task --kinds note'] }),
  operationCommand({ group: 'knowledge', name: 'ask', operation: askProjectKnowledge, positionals: ['...question'], resolve: project, examples: ['svc knowledge ask "how do we deploy?" --project app'] }),
  operationCommand({ group: 'knowledge', name: 'identify', operation: identifyProject, examples: ['svc knowledge identify --path "$PWD"', 'svc knowledge identify --text "the billing page is slow"'] }),
  operationCommand({ group: 'fact', name: 'list', description: 'A project\'s key/value facts ("test command" = "pnpm test"), by key.', operation: listProjectFacts, resolve: project, examples: ['svc fact list --project app'] }),
  operationCommand({ group: 'fact', name: 'set', description: 'Set a fact of a project: a short key and its value ("test command" = "pnpm test"), which later questions about the project are answered from; an existing key is replaced.', operation: manageProjectFacts, fixed: { action: 'set' }, positionals: ['key', '...value'], resolve: project, examples: ['svc fact set deploy "merge to main; CI deploys" --project app'] }),
  operationCommand({ group: 'fact', name: 'delete', description: 'Delete a fact of a project by its key.', operation: manageProjectFacts, fixed: { action: 'delete' }, positionals: ['key'], omit: ['value'], resolve: project, examples: ['svc fact delete deploy --project app'] }),
  operationCommand({ group: 'note', name: 'list', description: 'A project\'s notes (decisions, findings, hand-over text), newest first.', operation: listNotes, resolve: project, examples: ['svc note list --project app'] }),
  operationCommand({ group: 'note', name: 'show', operation: getNote, positionals: ['noteId'], examples: ['svc note show 4'] }),
  operationCommand({ group: 'note', name: 'create', description: 'Write a note in a project (a decision, a finding, hand-over text), optionally about one task (--task-id); questions and searches find it.', operation: manageNotes, fixed: { action: 'create' }, positionals: ['title'], omit: ['noteId'], resolve: project, examples: ['svc note create "Why we pinned libsql" --project app --body "…"'] }),
  operationCommand({ group: 'note', name: 'update', description: 'Change a note\'s title or body.', operation: manageNotes, fixed: { action: 'update' }, positionals: ['noteId'], omit: ['projectId', 'taskId'], examples: ['svc note update 4 --title "Why libsql stays pinned"'] }),
  operationCommand({ group: 'note', name: 'delete', description: 'Delete a note.', operation: manageNotes, fixed: { action: 'delete' }, positionals: ['noteId'], omit: ['projectId', 'taskId', 'title', 'body'], examples: ['svc note delete 4'] }),
  operationCommand({ group: 'asset', name: 'list', description: 'The named links, files and snippets a project keeps at hand, by name.', operation: listAssets, resolve: project, examples: ['svc asset list --project app'] }),
  operationCommand({ group: 'asset', name: 'show', operation: getAsset, positionals: ['assetId'], examples: ['svc asset show 2'] }),
  operationCommand({ group: 'asset', name: 'add', description: 'Add an asset to a project: a named link, file or other resource it works with.', operation: manageAssets, fixed: { action: 'add' }, positionals: ['name'], omit: ['assetId'], resolve: project, examples: ['svc asset add design --project app --kind link --uri https://design.example/app'] }),
  operationCommand({ group: 'asset', name: 'update', description: 'Change an asset\'s name, kind, location or description.', operation: manageAssets, fixed: { action: 'update' }, positionals: ['assetId'], omit: ['projectId'], examples: ['svc asset update 2 --description "the current mock-ups"'] }),
  operationCommand({ group: 'asset', name: 'remove', description: 'Remove an asset from a project.', operation: manageAssets, fixed: { action: 'remove' }, positionals: ['assetId'], omit: ['projectId', 'name', 'kind', 'uri', 'description'], examples: ['svc asset remove 2'] }),
  operationCommand({ group: 'daily', name: 'summary', operation: dailySummary, resolve: scope, examples: ['svc daily summary', 'svc daily summary --date 2026-11-25 --project app'] }),
  operationCommand({ group: 'daily', name: 'todo', operation: dailyTodo, resolve: scope, examples: ['svc daily todo --workspace main'] }),
  operationCommand({ group: 'product-group', name: 'list', operation: listProductGroups, resolve: { workspaceId: 'workspace' }, examples: ['svc product-group list --workspace main'] }),
  operationCommand({ group: 'product-group', name: 'show', operation: getProductGroup, positionals: ['id'], examples: ['svc product-group show 1'] }),
  operationCommand({ group: 'product-group', name: 'create', operation: createProductGroup, positionals: ['name'], resolve: { workspaceId: 'workspace' }, examples: ['svc product-group create shop --workspace main --project-ids 3 --project-ids 4'] }),
  operationCommand({ group: 'product-group', name: 'update', operation: updateProductGroup, positionals: ['id'], examples: ['svc product-group update 1 --name storefront'] }),
  operationCommand({ group: 'product-group', name: 'delete', operation: deleteProductGroup, positionals: ['id'], examples: ['svc product-group delete 1'] }),
  operationCommand({ group: 'task', name: 'versions', operation: listTaskVersions, positionals: ['taskId'], examples: ['svc task versions 12'] }),
  operationCommand({ group: 'task', name: 'restore-version', description: 'Put back the title and description of an earlier version (the status is not changed; svc task move does that). The restore is itself a new version.', operation: restoreTaskVersion, positionals: ['taskId', 'version'], examples: ['svc task restore-version 12 3'] }),
];
