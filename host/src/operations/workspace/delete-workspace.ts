import { z } from 'zod';
import { WorkspaceSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

export const deleteWorkspace = defineOperation({
  name: 'delete_workspace',
  group: 'workspace',
  description: 'Remove an empty workspace (remove its projects first); answers the removed record.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z.object({ id: RefSchema }).strict(),
  output: WorkspaceSchema,
  http: { method: 'DELETE', path: '/api/workspaces/:id', status: 204 },
  cli: { command: 'workspace remove', positionals: ['id'], usage: '<id|name>', examples: ['svc workspace remove main'], text: (record, print) => print.line(`workspace ${record.id} "${record.name}" removed`) },
  handler: (input, ctx) => {
    const { workspaces } = ctx.services.domain;
    const record = workspaces.resolve(input.id);
    workspaces.remove(record.id);
    return record;
  },
});
