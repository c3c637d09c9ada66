#!/usr/bin/env node
// A minimal MCP server over stdio (newline-delimited JSON-RPC) with one tool, `get_forecast`, so the
// recorder can capture a real `mcp_tool_call` from Codex without any network or package.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // notifications need no answer
  switch (message.method) {
    case 'initialize':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'svc-weather', version: '1.0.0' },
        },
      });
      break;
    case 'tools/list':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          tools: [
            {
              name: 'get_forecast',
              description: 'Weather forecast for a city',
              inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          ],
        },
      });
      break;
    case 'tools/call':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: `Sunny in ${message.params.arguments.city}, 21 C` }], isError: false },
      });
      break;
    default:
      send({ jsonrpc: '2.0', id: message.id, result: {} });
  }
});
