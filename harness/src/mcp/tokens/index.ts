export * from './mcp-token-operations.js';
export * from './mcp-token-record.js';
export * from './mcp-token-store.js';
export { parseTokenLifetime } from './parse-token-lifetime.js';
export { MCP_TOKEN_MIGRATIONS } from './ensure-mcp-token-schema.js';
