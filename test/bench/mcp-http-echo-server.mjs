// The baseline of the `mcp-http` bench: the MCP SDK's own minimal server (McpServer + registerTool,
// one echo tool) behind its Streamable HTTP transport with sessions, as its README shows it, on a
// free loopback port it prints as its first line. Plain JavaScript, started with node.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const transports = new Map();
const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  const id = req.headers['mcp-session-id'];
  let transport = id ? transports.get(id) : undefined;
  if (!transport && body && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => transports.set(sid, transport) });
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echo the text back', inputSchema: { text: z.string() }, outputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { text } }),
    );
    await server.connect(transport);
  }
  if (!transport) {
    res.writeHead(400).end();
    return;
  }
  await transport.handleRequest(req, res, body);
});
http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}\n`));
