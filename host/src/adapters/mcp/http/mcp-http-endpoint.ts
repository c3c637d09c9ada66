// `/mcp` on `svc serve`: the MCP server over Streamable HTTP (the SDK's transport), one session per
// client, each bound to the bearer token that opened it. Same capability definition, profiles and
// answers as `svc mcp` over stdio; the token decides the profile and, for a task token, the task.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SvcError } from '@svc-org/ai-sdk';
import { publicError } from '../../../platform/errors/index.js';
import type { HostServices } from '../../../host-services.js';
import type { McpGrant } from '../../../host-plugin.js';
import { checkLoopbackRequest } from '../../http/index.js';
import { OperationRegistry, type AnyOperation, type McpProfile, type OperationCaller } from '../../../operation-framework/index.js';
import type { TerminalManager } from '../../../features/terminals/index.js';
import { authenticateMcpCaller } from '../authenticate-mcp-caller.js';
import { CapabilityDefinition } from '../capability-definition.js';
import { createMcpServer } from '../create-mcp-server.js';
import { McpCallerInvoker } from '../mcp-caller-invoker.js';

export const MCP_PATH = '/mcp';

export interface McpHttpEndpointOptions {
  services: HostServices;
  terminals: TerminalManager;
  /** Every operation of the service (the one registry); the capability definition picks the tools. */
  operations: readonly AnyOperation[];
  version: string;
  /** The port the service listens on, known once it listens (the allowed Host and Origin name it). */
  port: () => number;
  /** Largest request body (default 1 MiB, as the rest of the API). */
  maxBodyBytes?: number;
  /** A session no request touched for this long is closed (default one hour). */
  idleMs?: number;
  /** Open sessions one token may hold (default 128): an `initialize` past it is refused. */
  maxSessionsPerToken?: number;
  /** Open sessions of all tokens together (default 512). */
  maxSessions?: number;
}

/** The session settings `svc serve` takes from its environment (docs/mcp.md). */
export const MCP_SESSION_SETTINGS = {
  idleMs: 'SVC_MCP_SESSION_IDLE_MS',
  maxSessionsPerToken: 'SVC_MCP_MAX_SESSIONS_PER_TOKEN',
  maxSessions: 'SVC_MCP_MAX_SESSIONS',
} as const;

/** Reads the session settings from the environment; a value that is not a positive whole number is refused. */
export function mcpSessionSettings(env: NodeJS.ProcessEnv): Pick<McpHttpEndpointOptions, keyof typeof MCP_SESSION_SETTINGS> {
  const settings: Pick<McpHttpEndpointOptions, keyof typeof MCP_SESSION_SETTINGS> = {};
  for (const [name, variable] of Object.entries(MCP_SESSION_SETTINGS) as [keyof typeof MCP_SESSION_SETTINGS, string][]) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new SvcError({ code: 'invalid_settings', message: `${variable} must be a positive whole number` });
    settings[name] = value;
  }
  return settings;
}

interface Session {
  grant: McpGrant;
  transport: StreamableHTTPServerTransport;
  server: Server;
  inFlight: Set<Promise<unknown>>;
  lastSeen: number;
}

const DEFAULTS = { maxBodyBytes: 1024 * 1024, idleMs: 3_600_000, maxSessionsPerToken: 128, maxSessions: 512 } as const;
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** JSON-RPC error codes of our refusals: the SDK's own for a parse error, an invalid request, a lost session. */
const JSONRPC_CODE: Record<string, number> = { invalid_json: -32700, invalid_jsonrpc: -32600, body_too_large: -32600, mcp_session_not_found: -32001, mcp_session_limit: -32000 };

export class McpHttpEndpoint {
  private readonly definition: CapabilityDefinition;
  private readonly registries = new Map<McpProfile, OperationRegistry>();
  /** Every operation the service serves, which a handler reads whatever the profile offers. */
  private readonly served: OperationRegistry;
  /** Initialized sessions, by id. */
  private readonly sessions = new Map<string, Session>();
  /** Every session that holds memory, those still initializing included: the caps count these. */
  private readonly held = new Set<Session>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly settings: Required<Pick<McpHttpEndpointOptions, 'maxBodyBytes' | 'idleMs' | 'maxSessionsPerToken' | 'maxSessions'>>;

  constructor(private readonly options: McpHttpEndpointOptions) {
    this.definition = new CapabilityDefinition(options.operations);
    this.served = new OperationRegistry(options.operations);
    this.settings = {
      maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
      idleMs: options.idleMs ?? DEFAULTS.idleMs,
      maxSessionsPerToken: options.maxSessionsPerToken ?? DEFAULTS.maxSessionsPerToken,
      maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
    };
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, this.settings.idleMs)).unref();
  }

  /** Open sessions (one per connected client), those still initializing included. */
  get sessionCount(): number {
    return this.held.size;
  }

  /** True for the requests this endpoint answers; the rest go to the service's other routes. */
  handles(req: IncomingMessage): boolean {
    const path = (req.url ?? '').split('?')[0];
    return path === MCP_PATH;
  }

  /** Answers one HTTP request to /mcp; never throws (a refusal is a JSON-RPC error with our code). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that goes away mid-call cancels what it asked: the handlers see their signal abort.
    let gone = false;
    let cancelCalls: (() => void) | undefined;
    res.once('close', () => {
      if (res.writableFinished) return;
      gone = true;
      cancelCalls?.();
    });
    try {
      checkLoopbackRequest(req.socket.remoteAddress, req.headers.host);
      this.checkOrigin(req.headers.origin);
      const grant = this.authenticate(req, res);
      const body = req.method === 'POST' ? await this.readBody(req) : undefined;
      const session = await this.sessionFor(req, grant, body);
      session.lastSeen = Date.now();
      // Gone before its call started: nothing of it runs.
      if (gone) return;
      cancelCalls = () => {
        for (const requestId of requestIdsOf(body)) {
          session.transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the client disconnected' } });
        }
      };
      await session.transport.handleRequest(req, res, body);
      // An initialize the transport refused leaves a session that never started: it holds nothing.
      if (session.transport.sessionId === undefined) void this.closeSession(session);
    } catch (error) {
      this.refuse(res, error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.held].map((session) => this.closeSession(session)));
  }

  private checkOrigin(origin: string | undefined): void {
    if (origin === undefined) return;
    if (!this.allowedOrigins().includes(origin)) {
      throw new SvcError({ code: 'origin_not_allowed', message: `a request from the page of ${origin} may not reach /mcp (DNS rebinding protection)` });
    }
  }

  private authenticate(req: IncomingMessage, res: ServerResponse): McpGrant {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    try {
      if (!match) {
        throw new SvcError({ code: 'unauthorized', message: 'send "Authorization: Bearer <token>" with a token from `svc mcp token create <name> --profile <profile>`' });
      }
      return this.options.services.plugins.mcpCallers().authenticateToken(this.options.services, match[1]!);
    } catch (error) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="svc-mcp"');
      throw error;
    }
  }

  private async readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client hears the answer instead of a reset.
      if (size <= this.settings.maxBodyBytes) chunks.push(chunk);
    }
    if (size > this.settings.maxBodyBytes) {
      throw new SvcError({ code: 'body_too_large', message: `the request body is over ${this.settings.maxBodyBytes} bytes` });
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new SvcError({ code: 'invalid_json', message: 'the request body is not valid JSON' });
    }
    if (Array.isArray(body) && body.length === 0) throw new SvcError({ code: 'invalid_jsonrpc', message: 'an empty JSON-RPC batch' });
    const messages = Array.isArray(body) ? body : [body];
    messages.forEach((message, index) => {
      if (!JSONRPCMessageSchema.safeParse(message).success) {
        throw new SvcError({
          code: 'invalid_jsonrpc',
          message: `${Array.isArray(body) ? `batch item ${index}` : 'the body'} is not a JSON-RPC 2.0 request, notification or response`,
          ...(Array.isArray(body) ? { details: { index } } : {}),
        });
      }
    });
    return body;
  }

  /** The session the request names (only its own token's), or a new one for an `initialize`. */
  private async sessionFor(req: IncomingMessage, grant: McpGrant, body: unknown): Promise<Session> {
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = this.sessions.get(id);
      // Another token's session is answered as if it did not exist.
      if (!session || session.grant.tokenId !== grant.tokenId) {
        throw new SvcError({ code: 'mcp_session_not_found', message: 'no such MCP session (it ended, or the service restarted): initialize again' });
      }
      return session;
    }
    const initialize = body !== undefined && !Array.isArray(body) && isInitializeRequest(body);
    if (!initialize) {
      throw new SvcError({ code: 'invalid_jsonrpc', message: 'send the Mcp-Session-Id header the initialize answer gave, or initialize first' });
    }
    this.checkRoomFor(grant);
    return this.openSession(grant);
  }

  /** Refuses a new session over the caps, once sessions idle past their time are closed. */
  private checkRoomFor(grant: McpGrant): void {
    this.closeIdle();
    const ofToken = [...this.held].filter((session) => session.grant.tokenId === grant.tokenId).length;
    const full =
      ofToken >= this.settings.maxSessionsPerToken
        ? { limit: this.settings.maxSessionsPerToken, of: `token "${grant.name}"`, setting: MCP_SESSION_SETTINGS.maxSessionsPerToken }
        : this.held.size >= this.settings.maxSessions
          ? { limit: this.settings.maxSessions, of: 'the service', setting: MCP_SESSION_SETTINGS.maxSessions }
          : undefined;
    if (!full) return;
    throw new SvcError({
      code: 'mcp_session_limit',
      message: `${full.of} has ${full.limit} open MCP sessions, the most it may hold`,
      details: {
        limit: full.limit,
        fix: `close sessions you no longer use (DELETE /mcp with their Mcp-Session-Id); an idle one closes after ${Math.round(this.settings.idleMs / 60_000)} min; svc serve's ${full.setting} sets the limit`,
      },
    });
  }

  private async openSession(grant: McpGrant): Promise<Session> {
    const { services, terminals, version } = this.options;
    const port = this.options.port();
    const session: Session = {
      grant,
      inFlight: new Set(),
      lastSeen: Date.now(),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts: LOOPBACK_NAMES.map((name) => `${name}:${port}`),
        allowedOrigins: this.allowedOrigins(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, session);
          services.plugins.mcpCallers().markTokenUsed(services, grant.tokenId);
          services.logger.info('mcp session', { transport: 'http', token: grant.name, profile: grant.profile, ...(grant.taskId !== undefined ? { taskId: grant.taskId } : {}) });
        },
        onsessionclosed: (id) => {
          this.sessions.delete(id);
          this.held.delete(session);
        },
      }),
      server: undefined as unknown as Server,
    };
    // The token is the credential: a task token proves its task as SVC_TASK_CREDENTIAL does; it is
    // no gateway's credential and names no channel, so a gateway-side profile reads no project, and
    // the caller checks of `svc mcp` (senderId, gateway writes) apply alike.
    const caller: OperationCaller = { via: 'mcp', mcpProfile: grant.profile, ...(grant.taskId !== undefined ? { taskId: grant.taskId } : {}) };
    authenticateMcpCaller(services, grant.profile, {}, caller);
    const invoker = new McpCallerInvoker({
      registry: this.registryOf(grant.profile),
      served: this.served,
      profile: grant.profile,
      needsSender: (tool) => this.definition.needsSender(grant.profile, tool),
      authenticate: async () => services,
      services: async () => services,
      terminals,
      caller,
    });
    session.server = createMcpServer({ tools: { definition: this.definition, invoker }, profile: grant.profile, version, logger: () => services.logger, inFlight: session.inFlight });
    session.transport.onclose = () => {
      if (session.transport.sessionId) this.sessions.delete(session.transport.sessionId);
      this.held.delete(session);
    };
    this.held.add(session);
    await session.server.connect(session.transport);
    return session;
  }

  private registryOf(profile: McpProfile): OperationRegistry {
    let registry = this.registries.get(profile);
    if (!registry) this.registries.set(profile, (registry = new OperationRegistry(this.definition.toolsOf(profile))));
    return registry;
  }

  private allowedOrigins(): string[] {
    const port = this.options.port();
    return LOOPBACK_NAMES.map((name) => `http://${name}:${port}`);
  }

  private closeIdle(): void {
    const before = Date.now() - this.settings.idleMs;
    for (const session of this.held) {
      if (session.lastSeen < before && session.inFlight.size === 0) void this.closeSession(session);
    }
  }

  /** Forgets the session at once (the caps no longer count it), then closes its server. */
  private async closeSession(session: Session): Promise<void> {
    if (session.transport.sessionId) this.sessions.delete(session.transport.sessionId);
    this.held.delete(session);
    await session.server.close();
  }

  /** A refusal as JSON-RPC: the HTTP status of its code, our code and message in `error.data`. */
  private refuse(res: ServerResponse, error: unknown): void {
    const shown = publicError(error);
    const logger = this.options.services.logger;
    if (shown.unexpected) logger.error('mcp request failed', { error: error instanceof Error ? error.stack : String(error) });
    if (res.headersSent) {
      res.end();
      return;
    }
    const body = {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: JSONRPC_CODE[shown.code] ?? -32000,
        message: shown.message,
        data: { code: shown.code, ...(shown.details ? { details: shown.details } : {}) },
      },
    };
    res.writeHead(shown.status, { 'Content-Type': 'application/json' });
    res.end(logger.redactor.text(JSON.stringify(body)));
  }
}

function requestIdsOf(body: unknown): Array<string | number> {
  const messages = (Array.isArray(body) ? body : body === undefined ? [] : [body]) as JSONRPCMessage[];
  return messages.flatMap((message) => ('method' in message && 'id' in message && message.method !== 'initialize' ? [message.id] : []));
}
