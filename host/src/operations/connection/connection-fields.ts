import { z } from 'zod';
import type { OperationCliFlag } from '../../operation-framework/index.js';

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

/** The flags of `svc connection add` and `svc connection set` that set these fields and the settings. */
export const CONNECTION_FLAGS = {
  commandOverride: { flag: 'command', value: '<path>', description: 'run this CLI executable instead of the discovered one' },
  baseArgs: { flag: 'arg', value: '<arg>', description: 'an argument put before every call\'s own (may start with "-"; repeat for more)' },
  env: { pairs: true, value: 'KEY=VALUE', description: 'environment for the CLI; values are secrets, shown masked (repeat for more)' },
  settings: { flag: 'set', pairs: true, value: 'key=value', description: "a provider setting, typed by the provider's schema (repeat for more)" },
} as const satisfies Record<string, OperationCliFlag>;
