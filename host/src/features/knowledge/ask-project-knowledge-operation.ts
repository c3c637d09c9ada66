import { z } from 'zod';
import { assertProjectInScope, defineOperation } from '../../operation-framework/index.js';
import { FactSchema } from './fact-store.js';
import { SearchHitSchema } from './knowledge-search.js';
import { ProjectKnowledge } from './project-knowledge.js';
import { repositoryIndexOptions } from './repository-index-options.js';

export const askProjectKnowledge = defineOperation({
  name: 'ask_project_knowledge',
  group: 'knowledge',
  // The read-only query bridge: one routed query and bounded project reads.
  mcp: { alsoIn: ['gateway-query'], delegatedRead: true },
  description:
    "Answer a question about a project from what svc knows: its facts, notes, assets, tasks and the text of its repository files (full-text search, no model). " +
    'Returns the facts and the best passages with their source; compose the answer from them and cite the paths.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'assertProjectInScope in its handler' },
  reach: { names: { projectId: 'project' } },
  input: z
    .object({
      projectId: z.number().int().positive(),
      question: z.string().min(1).max(4000),
      limit: z.number().int().min(1).max(50).default(8).describe('how many passages'),
    })
    .strict(),
  output: z.object({
    projectId: z.number(),
    projectName: z.string(),
    facts: z.array(FactSchema),
    passages: z.array(SearchHitSchema),
    repository: z.object({ files: z.number(), truncated: z.boolean() }),
  }),
  http: { method: 'GET', path: '/api/projects/:projectId/knowledge' },
  cli: { command: 'knowledge ask', positionals: ['...question'], flags: { projectId: { resolve: 'project' } }, examples: ['svc knowledge ask "how do we deploy?" --project app'] },
  handler(input, ctx) {
    // A gateway's caller reads only its channel's projects (the same answer whether the project exists or not).
    assertProjectInScope(ctx, input.projectId);
    const project = ctx.services.domain.projects.get(input.projectId);
    const knowledge = new ProjectKnowledge(ctx.services.db);
    const refreshed = knowledge.repository.refresh(project.id, project.repoPath, repositoryIndexOptions(ctx));
    return {
      projectId: project.id,
      projectName: project.name,
      facts: knowledge.facts.list(project.id),
      passages: knowledge.search.search({ text: input.question, projectIds: [project.id], limit: input.limit }),
      repository: { files: refreshed.files, truncated: refreshed.truncated },
    };
  },
});
