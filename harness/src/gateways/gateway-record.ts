import { z } from 'zod';

export const GATEWAY_KINDS = ['openclaw', 'hermes'] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];

/** What a gateway looks like to everyone but its client: the token only as `tokenSet`. */
export const GatewaySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(GATEWAY_KINDS),
  url: z.string().nullable(),
  command: z.string().nullable(),
  tokenSet: z.boolean(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GatewayRecord = z.infer<typeof GatewaySchema>;

export const GatewayRowSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    kind: z.enum(GATEWAY_KINDS),
    url: z.string().nullable(),
    command: z.string().nullable(),
    token: z.string().nullable(),
    active: z.number(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .transform((row) => ({
    record: {
      id: row.id,
      name: row.name,
      kind: row.kind,
      url: row.url,
      command: row.command,
      tokenSet: row.token !== null && row.token !== '',
      active: row.active === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    } satisfies GatewayRecord,
    token: row.token,
  }));
