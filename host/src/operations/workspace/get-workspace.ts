import { z } from 'zod';
import { WorkspaceSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

export const getWorkspace = defineOperation({
  name: 'get_workspace',
  group: 'workspace',
  description: 'Show one workspace, by id or name.',
  readOnly: true,
  runsIn: 'any',
  readScope: { after: (output, scope) => (scope.workspace(output.id), output) },
  reach: { names: { id: 'workspace' } },
  input: z.object({ id: RefSchema }).strict(),
  output: WorkspaceSchema,
  http: { method: 'GET', path: '/api/workspaces/:id' },
  handler: (input, ctx) => ctx.services.domain.workspaces.resolve(input.id),
});
