import { z } from 'zod';
import { EXTENSION_SOURCES, EXTENSION_STATES } from '../../features/extensions/registry/index.js';
import { IsolationSchema } from './isolation-schema.js';

/** An extension as every adapter shows it: ids, versions and states — never a path or a URL. */
export const ExtensionSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  version: z.string(),
  source: z.enum(EXTENSION_SOURCES),
  state: z.enum(EXTENSION_STATES),
  /** The permissions granted (what it asks for is `get_extension_permissions`). */
  permissions: z.array(z.string()),
  pendingVersion: z.string().nullable(),
  previousVersion: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  isolation: IsolationSchema,
});
