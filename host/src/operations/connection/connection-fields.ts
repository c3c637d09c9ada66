import { z } from 'zod';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment name is letters, digits and _');

/** What a person sets on a connection, for create and update alike. */
export const ConnectionFields = {
  enabled: z.boolean().optional(),
  /** The CLI executable to run instead of the discovered one; `null` goes back to discovery. */
  commandOverride: z.string().min(1).nullable().optional(),
  /** Arguments put before every call's own (a leading "-" is fine). */
  baseArgs: z.array(z.string()).max(100).optional(),
  /** Environment for the CLI; values are secrets, shown masked. Replaces the whole map. */
  env: z.record(EnvName, z.string()).optional(),
};
