import { z } from 'zod';
import { defineOperation, IdSchema, listOf } from '../../operation-framework/index.js';
import { FactSchema } from './fact-store.js';
import { ProjectKnowledge } from './project-knowledge.js';

export const listProjectFacts = defineOperation({
  name: 'list_project_facts',
  group: 'knowledge',
  description: "A project's key/value facts (\"test command\" = \"pnpm test\"), by key; manage_project_facts writes them.",
  readOnly: true,
  runsIn: 'any',
  readScope: { before: (input, scope) => scope.project(input.projectId) },
  reach: { names: { projectId: 'project' } },
  input: z.object({ projectId: IdSchema }).strict(),
  output: listOf(FactSchema),
  http: { method: 'GET', path: '/api/projects/:projectId/facts' },
  cli: {
    command: 'fact list',
    description: 'A project\'s key/value facts ("test command" = "pnpm test"), by key.',
    flags: { projectId: { resolve: 'project' } },
    examples: ['svc fact list --project app'],
  },
  handler(input, ctx) {
    ctx.services.domain.projects.get(input.projectId);
    return { items: new ProjectKnowledge(ctx.services.db).facts.list(input.projectId) };
  },
});
