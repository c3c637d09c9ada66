import { z } from 'zod';
import { ProjectSchema } from '../../features/domain/index.js';
import { defineOperation, listOf, projectInScope, RefSchema } from '../../operation-framework/index.js';

export const listProjects = defineOperation({
  name: 'list_projects',
  group: 'project',
  description: 'List projects, all of them or those of one workspace.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'filters by projectInScope in its handler' },
  reach: { names: { workspaceId: 'workspace' } },
  input: z.object({ workspaceId: RefSchema.optional() }).strict(),
  output: listOf(ProjectSchema),
  http: { method: 'GET', path: '/api/projects' },
  cli: {
    command: 'project list',
    flags: { workspaceId: { flag: 'workspace', short: 'w', value: '<id|name>', description: 'only the projects of this workspace' } },
    examples: ['svc project list --workspace main'],
    json: (output) => output.items,
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no projects (create one with `svc project create <name> --workspace <ws> --repo <folder>`)');
      else print.table(['ID', 'WORKSPACE', 'NAME', 'REPOSITORY'], items.map((r) => [String(r.id), String(r.workspaceId), r.name, r.repoPath]));
    },
  },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    const workspaceId = input.workspaceId === undefined ? undefined : domain.workspaces.resolve(input.workspaceId).id;
    return { items: domain.projects.list(workspaceId === undefined ? {} : { workspaceId }).filter((project) => projectInScope(ctx, project)) };
  },
});
