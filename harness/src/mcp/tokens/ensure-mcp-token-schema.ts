import { migrate, type Db } from '../../../../host/src/platform/db/index.js';
import mcpTokens from './migrations/1013_harness_mcp_tokens.sql';

export const MCP_TOKEN_MIGRATIONS = [{ version: 1013, name: '1013_harness_mcp_tokens', sql: mcpTokens }];

/** Applies the MCP token table once per database (idempotent, safe across processes). */
export function ensureMcpTokenSchema(db: Db): void {
  migrate(db, MCP_TOKEN_MIGRATIONS);
}
