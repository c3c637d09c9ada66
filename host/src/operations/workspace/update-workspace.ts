import { builtOnFirstUse, WorkspaceSchema, workspaceUpdateSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const updateWorkspaceInput = builtOnFirstUse(() => workspaceUpdateSchema().extend({ id: RefSchema }));

export const updateWorkspace = defineOperation({
  name: 'update_workspace',
  group: 'workspace',
  description: 'Rename a workspace or change its description.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  get input() {
    return updateWorkspaceInput();
  },
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
