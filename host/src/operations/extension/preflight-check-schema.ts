import { z } from 'zod';

/** One preflight check as adapters show it: passed, or failed with its code, message and fix. */
export const PreflightCheckSchema = z.union([
  z.object({ check: z.string(), ok: z.literal(true) }),
  z.object({ check: z.string(), ok: z.literal(false), code: z.string(), message: z.string(), fix: z.string() }),
]);
