import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';
import { ASSET_RECORD } from './knowledge-records.js';
import { ASSET_KINDS, AssetSchema } from './asset-store.js';
import { ProjectKnowledge } from './project-knowledge.js';
import { requireFields } from './require-fields.js';

export const manageAssets = defineOperation({
  name: 'manage_assets',
  group: 'assets',
  description:
    'Write the named links, files and snippets a project keeps at hand (design doc URL, API spec path, staging login steps); list_assets and get_asset read them. ' +
    'action add (projectId, name, kind, uri, description?) | update (assetId, …) | remove (assetId).',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { names: { projectId: 'project', assetId: ASSET_RECORD } },
  input: z
    .object({
      action: z.enum(['add', 'update', 'remove']),
      projectId: z.number().int().positive().optional(),
      assetId: z.number().int().positive().optional(),
      name: z.string().trim().min(1).max(200).optional(),
      kind: z.enum(ASSET_KINDS).optional().describe('link = URL, file = a path, text = the content itself in uri'),
      uri: z.string().min(1).max(20_000).optional(),
      description: z.string().max(10_000).optional(),
    })
    .strict(),
  output: z.object({ action: z.string(), asset: AssetSchema }),
  http: { method: 'POST', path: '/api/knowledge/assets' },
  handler(input, ctx) {
    const assets = new ProjectKnowledge(ctx.services.db).assets;
    switch (input.action) {
      case 'add': {
        const { projectId, name, kind, uri } = requireFields(input, input.action, ['projectId', 'name', 'kind', 'uri']);
        ctx.services.domain.projects.get(projectId);
        return { action: input.action, asset: assets.add({ projectId, name, kind, uri, description: input.description ?? '' }) };
      }
      case 'update': {
        const { assetId } = requireFields(input, input.action, ['assetId']);
        const { name, kind, uri, description } = input;
        return {
          action: input.action,
          asset: assets.update(assetId, { ...(name ? { name } : {}), ...(kind ? { kind } : {}), ...(uri ? { uri } : {}), ...(description !== undefined ? { description } : {}) }),
        };
      }
      case 'remove':
        return { action: input.action, asset: assets.remove(requireFields(input, input.action, ['assetId']).assetId) };
    }
  },
});
