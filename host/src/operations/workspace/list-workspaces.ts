import { z } from 'zod';
import { WorkspaceSchema } from '../../features/domain/index.js';
import { defineOperation, listOf } from '../../operation-framework/index.js';

export const listWorkspaces = defineOperation({
  name: 'list_workspaces',
  group: 'workspace',
  description: 'List every workspace, by name.',
  readOnly: true,
  runsIn: 'any',
  reach: { names: {} },
  input: z.object({}).strict(),
  output: listOf(WorkspaceSchema),
  http: { method: 'GET', path: '/api/workspaces' },
  handler: (_input, ctx) => ({ items: ctx.services.domain.workspaces.list() }),
});
