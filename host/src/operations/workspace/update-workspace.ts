import { WorkspaceSchema, WorkspaceUpdateSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

export const updateWorkspace = defineOperation({
  name: 'update_workspace',
  group: 'workspace',
  description: 'Rename a workspace or change its description.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: WorkspaceUpdateSchema.extend({ id: RefSchema }),
  output: WorkspaceSchema,
  http: { method: 'PATCH', path: '/api/workspaces/:id' },
  cli: {
    command: 'workspace update',
    positionals: ['id'],
    usage: '<id|name>',
    flags: { name: { value: '<name>', description: 'new name' }, description: { value: '<text>', description: 'new description' } },
    examples: ['svc workspace update main --name work'],
    text: (record, print) => print.line(`workspace ${record.id} "${record.name}" updated`),
  },
  handler: (input, ctx) => {
    const { id, ...patch } = input;
    const { workspaces } = ctx.services.domain;
    return workspaces.update(workspaces.resolve(id).id, patch);
  },
});
