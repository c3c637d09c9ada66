import { workspaceCreateSchema, WorkspaceSchema } from '../../features/domain/index.js';
import { defineOperation } from '../../operation-framework/index.js';

export const createWorkspace = defineOperation({
  name: 'create_workspace',
  group: 'workspace',
  description: 'Create a workspace (a group of projects); its name is unique.',
  readOnly: false,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  get input() {
    return workspaceCreateSchema();
  },
  output: WorkspaceSchema,
  http: { method: 'POST', path: '/api/workspaces', status: 201 },
  cli: {
    command: 'workspace create',
    positionals: ['name'],
    flags: { description: { value: '<text>', description: 'what the workspace is for' } },
    examples: ['svc workspace create main --description "day job"'],
    text: (record, print) => print.line(`workspace ${record.id} "${record.name}" created`),
  },
  handler: (input, ctx) => ctx.services.domain.workspaces.create(input),
});
