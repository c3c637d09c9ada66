import { z } from 'zod';
import { IsolationModeSchema } from '../../features/extensions/runtime/index.js';
import { defineOperation } from '../../operation-framework/index.js';
import { PermissionPromptSchema } from './permission-prompt-schema.js';

export const getExtensionPermissions = defineOperation({
  name: 'get_extension_permissions',
  group: 'extension',
  mcp: false,
  description:
    'What enabling an extension asks a person to confirm: its permissions after preflight, the CLI it will run and the exact probe (those of a staged update when one waits).',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ id: z.string().min(1).max(214), connection: z.string().min(1).optional(), isolation: IsolationModeSchema.optional() }).strict(),
  output: PermissionPromptSchema,
  http: { method: 'GET', path: '/api/extensions/:id/permissions' },
  handler: (input, ctx) => ctx.services.extensions.permissionPrompt(input.id, input.connection, input.isolation),
});
