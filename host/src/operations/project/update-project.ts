import { builtOnFirstUse, ProjectSchema, projectUpdateSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';
import { assertRepositoryOutsideSvcHome } from './assert-repository-outside-svc-home.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const updateProjectInput = builtOnFirstUse(() => projectUpdateSchema().extend({ id: RefSchema }));

export const updateProject = defineOperation({
  name: 'update_project',
  group: 'project',
  description: "Rename a project, move its repository folder or change its description.",
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  get input() {
    return updateProjectInput();
  },
  output: ProjectSchema,
  http: { method: 'PATCH', path: '/api/projects/:id' },
  cli: {
    command: 'project update',
    positionals: ['id'],
    usage: '<id|name>',
    flags: {
      name: { value: '<name>', description: 'new name' },
      repoPath: { flag: 'repo', value: '<folder>', description: 'new repository folder', folder: true },
      description: { value: '<text>', description: 'new description' },
    },
    examples: ['svc project update app --repo ~/src/app-v2'],
    text: (record, print) => print.line(`project ${record.id} "${record.name}" updated`),
  },
  handler: (input, ctx) => {
    const { id, ...patch } = input;
    const { projects } = ctx.services.domain;
    if (patch.repoPath !== undefined) assertRepositoryOutsideSvcHome(patch.repoPath, ctx.services.svcHome);
    return projects.update(projects.resolve(id).id, patch);
  },
});
