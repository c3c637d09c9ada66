import { z } from 'zod';

const jsonOf = <T extends z.ZodTypeAny>(schema: T) => z.string().transform((text) => schema.parse(JSON.parse(text)) as z.infer<T>);

/** A row of `connections`, parsed at the edge. Secrets are never part of it. */
// Built at its first parse (z.lazy): a command that reads no connection row never constructs it.
export const ConnectionRowSchema = z.lazy(() =>
  z
    .object({
      id: z.number(),
      name: z.string(),
      provider_id: z.string(),
      enabled: z.number(),
      command_override: z.string().nullable(),
      base_args: jsonOf(z.array(z.string())),
      env: jsonOf(z.record(z.string(), z.string())),
      config: jsonOf(z.record(z.string(), z.unknown())),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .transform((row) => ({
      id: row.id,
      name: row.name,
      providerId: row.provider_id,
      enabled: row.enabled === 1,
      commandOverride: row.command_override ?? undefined,
      baseArgs: row.base_args,
      env: row.env,
      config: row.config,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
);

export type ConnectionRecord = z.output<typeof ConnectionRowSchema>;

export const CONNECTION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MASK = '********';
