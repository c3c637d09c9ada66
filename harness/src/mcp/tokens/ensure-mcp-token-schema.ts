import type { Migration } from '@svc-org/host/platform/db';
import mcpTokens from './migrations/1013_harness_mcp_tokens.sql';

export const MCP_TOKEN_MIGRATIONS: Migration[] = [{ version: 1013, name: '1013_harness_mcp_tokens', sql: mcpTokens }];
