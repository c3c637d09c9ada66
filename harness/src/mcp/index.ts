export { MCP_PROFILES, parseMcpProfile, type McpProfile } from './mcp-profile.js';
export * from './tokens/index.js';
