import { defineOperation } from '../../operation-framework/index.js';
import { ExtensionIdInput } from './extension-id-input.js';
import { ExtensionSchema } from './extension-schema.js';
import { presentExtension } from './present-extension.js';

export const disableExtension = defineOperation({
  name: 'disable_extension',
  group: 'extension',
  mcp: false,
  description: 'Disable an extension: its worker is unloaded and nothing of it runs until it is enabled again.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  input: ExtensionIdInput,
  output: ExtensionSchema,
  http: { method: 'POST', path: '/api/extensions/:id/disable' },
  cli: {
    command: 'ext disable',
    description: 'Disable an extension; nothing of it runs until it is enabled again.',
    positionals: ['id'],
    expects: 'exactly one argument',
    examples: ['svc ext disable acme.my-cli'],
    text: (record, print) => print.outside(`${record.id} disabled`),
  },
  handler: async (input, ctx) => presentExtension(await ctx.services.extensions.disable(input.id), ctx.services.extensions),
});
