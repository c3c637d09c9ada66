// `svc mcp` as an MCP client meets it: a stdio child started by the SDK's own Client transport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SVC_BIN, type SvcSandbox } from './svc-process.js';

export interface SvcMcp {
  client: Client;
  /** stderr of the child, as far as it has been read. */
  stderr(): string;
  /** Calls a tool and returns its structured content; a tool error throws with its JSON. */
  call<T = any>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail and returns its `{code, message}`. */
  fail(name: string, args?: Record<string, unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function connectSvcMcp(svc: SvcSandbox, env: Record<string, string> = {}): Promise<SvcMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SVC_BIN, 'mcp'],
    env: { ...(svc.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  const raw = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    stderr: () => stderr,
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
    close: () => client.close(),
  };
}
