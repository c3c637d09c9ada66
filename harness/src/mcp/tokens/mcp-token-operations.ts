// Tokens of Streamable HTTP clients. A person makes them (`svc mcp token create`); the CLI and the
// web UI's Settings list and revoke them. They are never MCP tools: an agent does not mint access.
import { z } from 'zod';
import { defineOperation, IdSchema, MCP_PROFILES } from '@svc-org/host/operation-framework';
import { McpTokenSchema } from './mcp-token-record.js';
import { harnessOf } from '../../plugin/harness-state.js';
import { parseTokenLifetime } from './parse-token-lifetime.js';

const TokenName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash and underscore, starting with a letter or digit')
  .refine((name) => !/^\d+$/.test(name), 'not digits only: digits name a token by its id');

export const createMcpToken = defineOperation({
  name: 'create_mcp_token',
  group: 'mcp_token',
  mcp: false,
  description: 'Make a bearer token for an MCP client over Streamable HTTP (/mcp): it sees one profile and, with a task, acts as that task. The token is shown once.',
  readOnly: false,
  runsIn: 'any',
  input: z
    .object({ name: TokenName, profile: z.enum(MCP_PROFILES), taskId: IdSchema.optional(), expires: z.string().min(1).max(20).optional() })
    .strict(),
  output: z.object({ token: z.string(), record: McpTokenSchema }),
  handler: (input, ctx) =>
    harnessOf(ctx.services).mcpTokens.create({
      name: input.name,
      profile: input.profile,
      ...(input.taskId !== undefined ? { taskId: input.taskId } : {}),
      ...(input.expires !== undefined ? { lifetimeMs: parseTokenLifetime(input.expires) } : {}),
    }),
});

export const listMcpTokens = defineOperation({
  name: 'list_mcp_tokens',
  group: 'mcp_token',
  mcp: false,
  description: 'The MCP tokens: name, profile, task, expiry and state (never the token itself).',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: z.object({ items: z.array(McpTokenSchema) }),
  http: { method: 'GET', path: '/api/mcp/tokens' },
  handler: (_input, ctx) => ({ items: harnessOf(ctx.services).mcpTokens.list() }),
});

export const revokeMcpToken = defineOperation({
  name: 'revoke_mcp_token',
  group: 'mcp_token',
  mcp: false,
  description:
    'Revoke an MCP token by name or id (by: read it as one of them; digits that are the id of one token and the name of another are refused as ambiguous): ' +
    'its client is refused (401, mcp_token_revoked) from its next request on.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ token: z.string().min(1).max(100), by: z.enum(['id', 'name']).optional() }).strict(),
  output: McpTokenSchema,
  http: { method: 'POST', path: '/api/mcp/tokens/:token/revoke' },
  handler: (input, ctx) => harnessOf(ctx.services).mcpTokens.revoke(input.token, input.by),
});
