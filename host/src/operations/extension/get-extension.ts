import { defineOperation } from '../../operation-framework/index.js';
import { ExtensionIdInput } from './extension-id-input.js';
import { ExtensionSchema } from './extension-schema.js';
import { presentExtension } from './present-extension.js';

export const getExtension = defineOperation({
  name: 'get_extension',
  group: 'extension',
  mcp: false,
  description: 'Show one extension: version, source, state and granted permissions.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: ExtensionIdInput,
  output: ExtensionSchema,
  http: { method: 'GET', path: '/api/extensions/:id' },
  handler: (input, ctx) => presentExtension(ctx.services.extensions.get(input.id), ctx.services.extensions),
});
