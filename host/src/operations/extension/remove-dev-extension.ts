import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';
import { ExtensionIdInput } from './extension-id-input.js';

export const removeDevExtension = defineOperation({
  name: 'remove_dev_extension',
  group: 'extension',
  mcp: false,
  description: 'Remove a developer registration; its folder is left as it is.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: ExtensionIdInput,
  output: z.object({ removed: z.string() }),
  http: { method: 'DELETE', path: '/api/extensions/dev/:id', status: 204 },
  handler: async (input, ctx) => {
    await ctx.services.extensions.devRemove(input.id);
    return { removed: input.id };
  },
});
