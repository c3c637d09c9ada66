import { builtOnFirstUse, projectCreateSchema, ProjectSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';
import { assertRepositoryOutsideSvcHome } from './assert-repository-outside-svc-home.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const createProjectInput = builtOnFirstUse(() => projectCreateSchema().extend({ workspaceId: RefSchema }));

export const createProject = defineOperation({
  name: 'create_project',
  group: 'project',
  description: 'Create a project: a repository folder inside a workspace, where task terminals run.',
  readOnly: false,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  get input() {
    return createProjectInput();
  },
  output: ProjectSchema,
  http: { method: 'POST', path: '/api/projects', status: 201 },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    assertRepositoryOutsideSvcHome(input.repoPath, ctx.services.svcHome);
    return domain.projects.create({ ...input, workspaceId: domain.workspaces.resolve(input.workspaceId).id });
  },
});
