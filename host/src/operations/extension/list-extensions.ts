import { z } from 'zod';
import { defineOperation, listOf } from '../../operation-framework/index.js';
import { ExtensionSchema } from './extension-schema.js';
import { presentExtension } from './present-extension.js';

export const listExtensions = defineOperation({
  name: 'list_extensions',
  group: 'extension',
  mcp: false,
  description: 'List the registered extensions (providers) with their state and granted permissions.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: listOf(ExtensionSchema),
  http: { method: 'GET', path: '/api/extensions' },
  handler: (_input, ctx) => ({ items: ctx.services.extensions.list().map((record) => presentExtension(record, ctx.services.extensions)) }),
});
