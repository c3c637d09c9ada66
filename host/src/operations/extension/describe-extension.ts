import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';
import { ExtensionDescriptionSchema } from './extension-description-schema.js';
import { formatExtensionDescription } from './format-extension-description.js';

export const describeExtension = defineOperation({
  name: 'describe_extension',
  group: 'extension',
  mcp: false,
  description:
    'What an extension asks for before it is enabled: requested and granted permissions, compatibility, the CLI it would run and its version probe, and every preflight check. Runs nothing.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ id: z.string().min(1).max(214), connection: z.string().min(1).optional() }).strict(),
  output: ExtensionDescriptionSchema,
  http: { method: 'GET', path: '/api/extensions/:id/description' },
  cli: {
    command: 'ext show',
    description: 'Show what an extension asks for before you enable it: permissions, the CLI and its probe, compatibility, checks.',
    positionals: ['id'],
    expects: 'exactly one argument',
    flags: { connection: { value: '<name>', description: 'as this connection runs it (its CLI command override and settings)' } },
    examples: ['svc ext show acme.my-cli'],
    text: (shown, print) => {
      for (const line of formatExtensionDescription(shown)) print.outside(line);
    },
  },
  handler: async (input, ctx) => {
    const shown = await ctx.services.extensions.show(input.id, input.connection);
    ctx.services.statsRecorder.flush();
    const used = new Set(ctx.services.stats.read(shown.id).permissionUse.map((entry) => entry.permission));
    return { ...shown, unusedPermissions: shown.grantedPermissions.filter((permission) => !used.has(permission)) };
  },
});
