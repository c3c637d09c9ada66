import { z } from 'zod';
import { assertProjectInScope, defineOperation, projectInScope } from '../../operation-framework/index.js';
import { SEARCH_KINDS, SearchHitSchema } from './knowledge-search.js';
import { ProjectKnowledge } from './project-knowledge.js';
import { repositoryIndexOptions } from './repository-index-options.js';

export const globalSearch = defineOperation({
  name: 'global_search',
  group: 'search',
  description:
    'Full-text search across projects, tasks, notes, facts, assets and repository files (optionally one workspace or project, or some kinds). ' +
    'Hits are ranked best first, with the matching passage.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'searches only projects in scope' },
  reach: { names: { workspaceId: 'workspace', projectId: 'project' } },
  input: z
    .object({
      query: z.string().min(1).max(1000),
      workspaceId: z.number().int().positive().optional(),
      projectId: z.number().int().positive().optional(),
      kinds: z.array(z.enum(SEARCH_KINDS)).min(1).optional(),
      limit: z.number().int().min(1).max(100).default(20),
    })
    .strict(),
  output: z.object({ hits: z.array(SearchHitSchema) }),
  http: { method: 'GET', path: '/api/search' },
  cli: { command: 'search', positionals: ['...query'], flags: { projectId: { resolve: 'project' }, workspaceId: { resolve: 'workspace' } }, examples: ['svc search "login timeout" --project app --kinds task --kinds note'] },
  handler(input, ctx) {
    if (input.projectId !== undefined) assertProjectInScope(ctx, input.projectId);
    const projects = (
      input.projectId !== undefined
        ? [ctx.services.domain.projects.get(input.projectId)]
        : ctx.services.domain.projects.list(input.workspaceId !== undefined ? { workspaceId: ctx.services.domain.workspaces.get(input.workspaceId).id } : {})
    ).filter((project) => projectInScope(ctx, project));
    const knowledge = new ProjectKnowledge(ctx.services.db);
    if (!input.kinds || input.kinds.includes('file')) knowledge.refresh(projects, repositoryIndexOptions(ctx));
    const scoped = input.projectId !== undefined || input.workspaceId !== undefined || ctx.caller.projectScopes !== undefined;
    return {
      hits: knowledge.search.search({
        text: input.query,
        limit: input.limit,
        ...(input.kinds ? { kinds: input.kinds } : {}),
        ...(scoped ? { projectIds: projects.map((project) => project.id) } : {}),
      }),
    };
  },
});
