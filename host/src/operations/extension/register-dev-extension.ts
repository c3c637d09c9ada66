import { z } from 'zod';
import { EXTENSION_SOURCES, EXTENSION_STATES } from '../../features/extensions/registry/index.js';
import { defineOperation } from '../../operation-framework/index.js';
import { PreflightCheckSchema } from './preflight-check-schema.js';
import { presentExtension } from './present-extension.js';

// Developer mode (the Extensions settings page): the folder is the one path a browser may send; the
// service checks it (absolute, an existing folder, a valid manifest) and nothing of the provider runs.
export const registerDevExtension = defineOperation({
  name: 'register_dev_extension',
  group: 'extension',
  mcp: false,
  description: 'Register a built provider folder in place (developer mode); it stays disabled and nothing of it runs.',
  readOnly: false,
  runsIn: 'any',
  input: z.object({ dir: z.string().min(1).max(4096) }).strict(),
  output: z.object({
    // The registration answer names the extension only; its state and permissions are get_extension's.
    extension: z.object({ id: z.string(), displayName: z.string(), version: z.string(), source: z.enum(EXTENSION_SOURCES), state: z.enum(EXTENSION_STATES) }),
    checks: z.array(PreflightCheckSchema),
  }),
  http: { method: 'POST', path: '/api/extensions/dev', status: 201 },
  handler: async (input, ctx) => {
    const { record, report } = await ctx.services.extensions.devAdd(input.dir);
    const { id, displayName, version, source, state } = presentExtension(record, ctx.services.extensions);
    return {
      extension: { id, displayName, version, source, state },
      checks: report.checks.map((check) => (check.ok ? { check: check.check, ok: true as const } : { check: check.check, ok: false as const, code: check.code, message: check.message, fix: check.fix })),
    };
  },
});
