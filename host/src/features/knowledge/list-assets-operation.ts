import { z } from 'zod';
import { defineOperation, IdSchema, listOf } from '../../operation-framework/index.js';
import { AssetSchema } from './asset-store.js';
import { ProjectKnowledge } from './project-knowledge.js';

export const listAssets = defineOperation({
  name: 'list_assets',
  group: 'assets',
  description: 'The named links, files and snippets a project keeps at hand, by name; manage_assets writes them.',
  readOnly: true,
  runsIn: 'any',
  readScope: { before: (input, scope) => scope.project(input.projectId) },
  reach: { names: { projectId: 'project' } },
  input: z.object({ projectId: IdSchema }).strict(),
  output: listOf(AssetSchema),
  http: { method: 'GET', path: '/api/knowledge/assets' },
  cli: {
    command: 'asset list',
    description: 'The named links, files and snippets a project keeps at hand, by name.',
    flags: { projectId: { resolve: 'project' } },
    examples: ['svc asset list --project app'],
  },
  handler(input, ctx) {
    ctx.services.domain.projects.get(input.projectId);
    return { items: new ProjectKnowledge(ctx.services.db).assets.list(input.projectId) };
  },
});
