// A probe MCP server for the client matrix (docs/mcp-clients.md): the MCP SDK's McpServer behind its
// Streamable HTTP transport on 127.0.0.1, whose tools each exercise one feature a client may or may
// not honour, and which records every message a client sends. svc's own server never sends
// list_changed, elicitation requests or resource links, and its text content is the JSON of its
// structured result, so what a client does with those is observed here instead.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** Only in structuredContent (the text content never says it). */
export const STRUCTURED_MARKER = 'structured-only-7f3a';
/** Only in the resource link's uri. */
export const LINK_URI = 'probe://docs/linked-only-52c1';

export interface ProbeMessage {
  session: string | undefined;
  method: string | undefined;
  id: unknown;
  params: Record<string, any> | undefined;
  /** An answer of the client (to a request the server sent). */
  result?: unknown;
  at: number;
}

export interface ElicitationOutcome {
  declared: boolean;
  answer?: string;
  error?: string;
}

export interface ProbeServer {
  url: string;
  messages: ProbeMessage[];
  /** What came of each probe_elicit call. */
  elicitations: ElicitationOutcome[];
  /** The `tools/call` requests for a probe tool. */
  calls(tool: string): ProbeMessage[];
  close(): Promise<void>;
}

export async function startProbeServer(): Promise<ProbeServer> {
  const messages: ProbeMessage[] = [];
  const elicitations: ElicitationOutcome[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];

  const makeServer = () => {
    const server = new McpServer({ name: 'probe', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, resources: {} } });
    server.registerTool(
      'probe_structured',
      {
        title: 'Structured probe',
        description: 'Returns a structured result.',
        outputSchema: { marker: z.string() },
      },
      async () => ({ content: [{ type: 'text', text: 'The answer is in the structured result.' }], structuredContent: { marker: STRUCTURED_MARKER } }),
    );
    server.registerTool('probe_link', { title: 'Resource link probe', description: 'Returns a link to a document.' }, async () => ({
      content: [
        { type: 'text', text: 'One document is linked.' },
        { type: 'resource_link', uri: LINK_URI, name: 'linked-document', mimeType: 'text/plain' },
      ],
    }));
    server.registerResource('linked-document', LINK_URI, { mimeType: 'text/plain' }, async () => ({
      contents: [{ uri: LINK_URI, mimeType: 'text/plain', text: 'The linked document.' }],
    }));
    server.registerTool(
      'probe_read',
      { title: 'Read-only probe', description: 'Reads nothing and changes nothing.', annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true } },
      async () => ({ content: [{ type: 'text', text: 'read-only probe ran' }] }),
    );
    server.registerTool(
      'probe_delete',
      { title: 'Destructive probe', description: 'Pretends to delete everything.', annotations: { readOnlyHint: false, destructiveHint: true } },
      async () => ({ content: [{ type: 'text', text: 'destructive probe ran' }] }),
    );
    server.registerTool('probe_elicit', { title: 'Elicitation probe', description: 'Asks the user a question.' }, async (extra) => {
      const declared = server.server.getClientCapabilities()?.elicitation !== undefined;
      const outcome: ElicitationOutcome = { declared };
      if (declared) {
        try {
          const answer = await extra.sendRequest(
            {
              method: 'elicitation/create',
              params: { mode: 'form', message: 'Which colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } },
            },
            ElicitResultSchema,
            { timeout: 20_000 },
          );
          outcome.answer = answer.action;
        } catch (error) {
          outcome.error = (error as Error).message;
        }
      }
      elicitations.push(outcome);
      return { content: [{ type: 'text', text: `elicitation: ${outcome.answer ?? outcome.error ?? 'not declared'}` }] };
    });
    server.registerTool('probe_change', { title: 'List-change probe', description: 'Adds a tool to the list.' }, async (extra) => {
      // Registering after connect sends list_changed on the standalone stream; the one related to this
      // call reaches a client that opened no such stream.
      server.registerTool('probe_added', { title: 'Added probe', description: 'Added while the session ran.' }, async () => ({
        content: [{ type: 'text', text: 'added probe ran' }],
      }));
      const sent = Date.now();
      await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      // Give the client time to list again before the answer goes back to the model.
      for (let waited = 0; waited < 5_000; waited += 100) {
        if (messages.some((message) => message.method === 'tools/list' && message.at >= sent)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { content: [{ type: 'text', text: 'A tool was added.' }] };
    });
    server.registerTool('probe_slow', { title: 'Slow probe', description: 'Takes a long time.' }, async (extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 0; step < 300 && !extra.signal.aborted; step++) {
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: 300 } }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return { content: [{ type: 'text', text: 'slow probe done' }] };
    });
    servers.push(server);
    return server;
  };

  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const session = req.headers['mcp-session-id'] as string | undefined;
    for (const message of Array.isArray(body) ? body : body ? [body] : []) {
      messages.push({ session, method: message.method, id: message.id, params: message.params, ...('result' in message ? { result: message.result } : {}), at: Date.now() });
    }
    let transport = session ? transports.get(session) : undefined;
    if (!transport && body && isInitializeRequest(body)) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      transport = created;
      await makeServer().connect(transport);
    }
    if (!transport) {
      res.writeHead(404).end();
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    messages,
    elicitations,
    calls: (tool) => messages.filter((message) => message.method === 'tools/call' && message.params?.name === tool),
    async close() {
      await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The `initialize` request a client sent (its capabilities and protocol version). */
export const initializeOf = (probe: ProbeServer) => probe.messages.find((message) => message.method === 'initialize');
