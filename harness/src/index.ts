export * from './mcp/index.js';
export * from './operations/index.js';
