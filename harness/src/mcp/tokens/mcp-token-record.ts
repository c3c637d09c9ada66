import { z } from 'zod';
import { MCP_PROFILES } from '@svc-org/host/operation-framework';

/** A token as it is shown: everything but the token, which only its maker ever sees. */
export const McpTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  profile: z.enum(MCP_PROFILES),
  taskId: z.number().int().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  /** `active`, or why the token is refused now. */
  state: z.enum(['active', 'expired', 'revoked']),
});
export type McpTokenRecord = z.infer<typeof McpTokenSchema>;

export const McpTokenRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  token_hash: z.string(),
  profile: z.enum(MCP_PROFILES),
  task_id: z.number().int().nullable(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type McpTokenRow = z.infer<typeof McpTokenRowSchema>;

export function presentMcpToken(row: McpTokenRow, now: Date): McpTokenRecord {
  const state = row.revoked_at ? 'revoked' : row.expires_at && Date.parse(row.expires_at) <= now.getTime() ? 'expired' : 'active';
  return {
    id: row.id,
    name: row.name,
    profile: row.profile,
    taskId: row.task_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    state,
  };
}
