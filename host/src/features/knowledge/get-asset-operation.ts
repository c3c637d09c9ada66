import { z } from 'zod';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { ASSET_RECORD } from './knowledge-records.js';
import { AssetSchema } from './asset-store.js';
import { ProjectKnowledge } from './project-knowledge.js';

export const getAsset = defineOperation({
  name: 'get_asset',
  group: 'assets',
  description: 'One project asset (link, file or snippet) by its id.',
  readOnly: true,
  runsIn: 'any',
  readScope: { after: (output, scope) => (scope.project(output.projectId), output) },
  reach: { names: { assetId: ASSET_RECORD } },
  input: z.object({ assetId: IdSchema }).strict(),
  output: AssetSchema,
  http: { method: 'GET', path: '/api/knowledge/assets/:assetId' },
  cli: { command: 'asset show', positionals: ['assetId'], examples: ['svc asset show 2'] },
  handler: (input, ctx) => new ProjectKnowledge(ctx.services.db).assets.get(input.assetId),
});
