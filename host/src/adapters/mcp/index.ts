export * from './capability-definition.js';
export { createMcpServer, type McpServerOptions } from './create-mcp-server.js';
export { MCP_PROFILES, parseMcpProfile, type McpProfile } from '../../operation-framework/index.js';
export { runMcpServer, type McpComposition, type McpIo } from './run-mcp-server.js';
export { renderToolReference } from './render-tool-reference.js';
