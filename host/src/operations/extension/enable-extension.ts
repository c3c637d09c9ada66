import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { IsolationModeSchema } from '../../features/extensions/runtime/index.js';
import { defineOperation } from '../../operation-framework/index.js';
import { ExtensionSchema } from './extension-schema.js';
import { presentExtension } from './present-extension.js';

export const enableExtension = defineOperation({
  name: 'enable_extension',
  group: 'extension',
  mcp: false,
  description:
    'Enable an extension with the exact permission list the person confirmed (get_extension_permissions); any other list enables nothing.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  input: z
    .object({
      id: z.string().min(1).max(214),
      permissions: z.array(z.string().min(1)).max(50),
      connection: z.string().min(1).optional(),
      /** Change how the provider runs (`process`: hardened; `worker`: in a worker thread of the service). */
      isolation: IsolationModeSchema.optional(),
    })
    .strict(),
  output: ExtensionSchema,
  http: { method: 'POST', path: '/api/extensions/:id/enable' },
  handler: async (input, ctx) => {
    const confirmed = new Set(input.permissions);
    const record = await ctx.services.extensions.enable(
      input.id,
      async (prompt) => {
        const requested = prompt.requested.map((permission) => permission.name);
        if (requested.length !== confirmed.size || !requested.every((name) => confirmed.has(name))) {
          throw new SvcError({
            code: 'permissions_mismatch',
            message: `${input.id} requests ${requested.join(', ') || 'no permissions'}; confirm exactly that list`,
            details: { requested, confirmed: [...confirmed].sort() },
          });
        }
        return true;
      },
      { ...(input.connection === undefined ? {} : { connection: input.connection }), ...(input.isolation === undefined ? {} : { isolation: input.isolation }) },
    );
    return presentExtension(record, ctx.services.extensions);
  },
});
