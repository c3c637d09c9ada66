import { z } from 'zod';
import { IsolationSchema } from './isolation-schema.js';

/** What a person confirms before an extension may load (see `PermissionPrompt`). */
export const PermissionPromptSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  version: z.string(),
  requested: z.array(z.object({ name: z.string(), description: z.string(), new: z.boolean() })),
  dropped: z.array(z.string()),
  currentVersion: z.string().optional(),
  cli: z
    .object({
      command: z.string(),
      source: z.string(),
      probe: z.object({ command: z.string(), args: z.array(z.string()) }).nullable(),
      previousProbe: z.string().optional(),
      ranBefore: z.boolean().optional(),
    })
    .optional(),
  sessions: z.string().optional(),
  isolation: IsolationSchema.optional(),
  integrationFiles: z.array(z.string()).optional(),
  notice: z.array(z.string()),
});
