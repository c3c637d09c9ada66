// The baseline of the `mcp` bench: the MCP SDK's own minimal server (McpServer + registerTool)
// with one echo tool over stdio, as its README shows it. Plain JavaScript, started with node.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echo the text back', inputSchema: { text: z.string() }, outputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { text } }),
);
await server.connect(new StdioServerTransport());
