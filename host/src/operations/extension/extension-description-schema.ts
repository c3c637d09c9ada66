import { z } from 'zod';
import { EXTENSION_SOURCES, EXTENSION_STATES } from '../../features/extensions/registry/index.js';
import { IsolationSchema } from './isolation-schema.js';
import { PreflightCheckSchema } from './preflight-check-schema.js';

/** Everything a person reviews before enabling (`ExtensionDescription`), found without running anything. */
export const ExtensionDescriptionSchema = z.object({
  id: z.string(),
  version: z.string(),
  source: z.enum(EXTENSION_SOURCES),
  state: z.enum(EXTENSION_STATES),
  displayName: z.string(),
  description: z.string().optional(),
  requestedPermissions: z.array(z.string()),
  grantedPermissions: z.array(z.string()),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  pending: z.object({ version: z.string(), newPermissions: z.array(z.string()) }).optional(),
  /** Granted permissions no Host Context call used in the last 30 days (publishers may drop them). */
  unusedPermissions: z.array(z.string()).optional(),
  compatibility: z.object({ svc: z.string(), node: z.string(), cli: z.string().optional() }).optional(),
  cli: z
    .object({
      default: z.string(),
      override: z.string().optional(),
      found: z.string().nullable(),
      error: z.object({ code: z.string(), message: z.string(), fix: z.string() }).optional(),
      probe: z.object({ args: z.array(z.string()), confirmed: z.boolean(), runs: z.string() }).nullable(),
    })
    .optional(),
  /** Every file and folder its integrations may read and write (the manifest's `integrationFiles`). */
  integrationFiles: z.array(z.string()),
  sessions: z.string().optional(),
  checks: z.array(PreflightCheckSchema),
  /** The mode it runs (or will run) in, and what that enforces here; `notice` is said for this mode. */
  isolation: IsolationSchema,
  notice: z.array(z.string()),
});
