import { z } from 'zod';
import { WorkspaceSchema } from '../../features/domain/index.js';
import { defineOperation, listOf, scopedItems } from '../../operation-framework/index.js';

export const listWorkspaces = defineOperation({
  name: 'list_workspaces',
  group: 'workspace',
  description: 'List every workspace, by name.',
  readOnly: true,
  runsIn: 'any',
  readScope: { after: (output, scope) => scopedItems(output, (item) => scope.workspaceVisible(item.id as number)) },
  reach: { names: {} },
  input: z.object({}).strict(),
  output: listOf(WorkspaceSchema),
  http: { method: 'GET', path: '/api/workspaces' },
  cli: {
    command: 'workspace list',
    examples: ['svc workspace list'],
    json: (output) => output.items,
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no workspaces (create one with `svc workspace create <name>`)');
      else print.table(['ID', 'NAME', 'DESCRIPTION'], items.map((r) => [String(r.id), r.name, r.description]));
    },
  },
  handler: (_input, ctx) => ({ items: ctx.services.domain.workspaces.list() }),
});
