import { z } from 'zod';
import { ProjectSchema } from '../../features/domain/index.js';
import { defineOperation, assertProjectInScope, RefSchema } from '../../operation-framework/index.js';

export const getProject = defineOperation({
  name: 'get_project',
  group: 'project',
  // The read-only query bridge: one routed query and bounded project reads.
  mcp: { alsoIn: ['gateway-query'], delegatedRead: true },
  description: 'Show one project, by id or unique name.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'assertProjectInScope in its handler' },
  reach: { names: { id: 'project' } },
  input: z.object({ id: RefSchema }).strict(),
  output: ProjectSchema,
  http: { method: 'GET', path: '/api/projects/:id' },
  handler(input, ctx) {
    const project = ctx.services.domain.projects.resolve(input.id);
    assertProjectInScope(ctx, project.id);
    return project;
  },
});
