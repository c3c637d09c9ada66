// An MCP client of `/mcp` on `svc serve`, as a remote client meets it: the SDK's own Streamable HTTP
// client transport with a bearer token. Same shape as the stdio helper, so tests compare the two.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SvcMcp } from './svc-mcp-client.js';

export async function connectSvcMcpHttp(serviceUrl: string, token: string, options: { protocolVersion?: string } = {}): Promise<SvcMcp> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', serviceUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'svc-test-http', version: '1.0.0' });
  if (options.protocolVersion) transport.setProtocolVersion(options.protocolVersion);
  await client.connect(transport);
  const raw = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    stderr: () => '',
    async call(name, args = {}) {
      const result = await raw(name, args);
      if (result.isError) throw new Error(`${name} failed: ${(result.content[0] as { text: string }).text}`);
      return result.structuredContent as any;
    },
    async fail(name, args = {}) {
      const result = await raw(name, args);
      if (!result.isError) throw new Error(`${name} succeeded: ${JSON.stringify(result.structuredContent)}`);
      return JSON.parse((result.content[0] as { text: string }).text).error;
    },
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** One raw POST to /mcp: what a client that does not use the SDK (or a hostile one) sends. */
export async function postMcp(serviceUrl: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(new URL('/mcp', serviceUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an SSE answer stays text
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
