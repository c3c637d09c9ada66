// The MCP adapter over operations: `tools/list` and `tools/call` for one profile.
// The SDK's low-level `Server` (not `McpServer`): every tool is already an operation with its zod
// schemas, and the profile gate and our coded errors are ours to shape.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { publicError } from '../../platform/errors/index.js';
import type { Logger } from '../../platform/logging/index.js';
import type { AnyOperation, McpProfile, OperationInvoker, OperationProgress } from '../../operation-framework/index.js';
import type { CapabilityDefinition } from './capability-definition.js';
import { PREBUILT_TOOL_LISTINGS } from './prebuilt-tool-listings.js';
import { toolErrorResult } from './tool-error-result.js';

/** The profile's tools and what runs them. */
export interface McpTools {
  definition: CapabilityDefinition;
  /**
   * Runs a tool here or, for live terminals, in the service over the localhost bridge. An invoker
   * with `checksSender` checks the chat-sender rule itself, after its credential rules.
   */
  invoker: OperationInvoker & { readonly checksSender?: boolean };
}

export interface McpServerOptions {
  profile: McpProfile;
  version: string;
  /**
   * The tools, or how to load them: `svc mcp` loads its operations at the first call (or just after
   * it answered tools/list), and answers tools/list before that from `listing`.
   */
  tools: McpTools | (() => Promise<McpTools>);
  /** The profile's `tools/list` entries as the build computed them, answered while `tools` loads. */
  listing?: readonly Tool[];
  /** The log once the host services are open (nothing is logged before a call). */
  logger?: () => Logger | undefined;
  /** Calls still running are kept here, so the server can finish them before it closes. */
  inFlight?: Set<Promise<unknown>>;
}

export function createMcpServer(options: McpServerOptions): Server {
  type Loaded = { tools: McpTools; byName: Map<string, AnyOperation> };
  let loaded: Promise<Loaded> | undefined;
  /** The tools once loaded: a call then finds its tool without waiting a turn for a settled promise. */
  let ready: Loaded | undefined;
  const load = () =>
    (loaded ??= (typeof options.tools === 'function' ? options.tools() : Promise.resolve(options.tools)).then(
      (tools) => (ready = { tools, byName: new Map(tools.definition.toolsOf(options.profile).map((tool) => [tool.name, tool])) }),
    ));
  const server = new Server(
    { name: 'svc', version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'svc manages workspaces, projects and tasks, and runs each task in a CLI terminal. Typical work: create_task, start_task_execution, ' +
        'poll get_task_terminal_output passing the cursor it returned, send_task_terminal_input, get_task_terminal_status.',
    },
  );
  let listed: Tool[] | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (listed) return { tools: listed };
    if (options.listing && typeof options.tools === 'function') {
      // Answered from the build's listing; the operations load while the client reads it.
      setImmediate(() => void load().catch(() => undefined));
      return { tools: (listed = [...options.listing]) };
    }
    const { byName } = await load();
    return { tools: (listed ??= [...byName.values()].map(listingOf)) };
  });
  const onCall: Parameters<typeof server.setRequestHandler<typeof CallToolRequestSchema>>[1] = (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    const progress = progressToken === undefined ? undefined : progressNotifier((params) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...params } }));
    const call = callTool(request.params.name, request.params.arguments, extra.signal, progress);
    options.inFlight?.add(call);
    void call.finally(() => options.inFlight?.delete(call));
    return call;
  };
  // Registered as the SDK's Protocol registers any handler (the request parsed once against
  // CallToolRequestSchema), not through Server.setRequestHandler, whose tools/call wrapper parses
  // the request a second time and copies the answer through CallToolResultSchema: about a fifth of a
  // get_task call's allocations. Every answer here is built as a CallToolResult (toolResult,
  // toolErrorResult), and a call that asks to run as a task is refused before any handler runs
  // (the server declares no tasks capability), which is the wrapper's other branch.
  (Protocol.prototype.setRequestHandler as (this: Server, schema: typeof CallToolRequestSchema, handler: typeof onCall) => void).call(server, CallToolRequestSchema, onCall);
  const callTool = async (name: string, args: Record<string, unknown> | undefined, signal: AbortSignal, progress?: OperationProgress): Promise<CallToolResult> => {
    let tools: McpTools;
    let tool: AnyOperation | undefined;
    try {
      const found = ready ?? (await load());
      tools = found.tools;
      tool = found.byName.get(name);
    } catch (error) {
      options.logger?.()?.error('mcp tools failed to load', { error: error instanceof Error ? error.stack : String(error) });
      return toolErrorResult(error, options.logger?.()?.redactor);
    }
    // A tool outside the profile is answered exactly like a tool that does not exist.
    if (!tool) return toolErrorResult(new SvcError({ code: 'unknown_tool', message: `Tool ${name} not found` }));
    try {
      // The MCP invokers check this themselves, after the credential rules (a gateway without its credential is told so first).
      if (!tools.invoker.checksSender && tools.definition.needsSender(options.profile, tool.name) && typeof args?.senderId !== 'string') {
        throw new SvcError({ code: 'owner_required', message: `${tool.name} through this profile serves only the owner of a chat: give platform, chatId and senderId` });
      }
      const output = await tools.invoker.invoke(tool, args ?? {}, signal, progress);
      const structured = toStructured(output);
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      const logger = options.logger?.();
      if (publicError(error).unexpected) logger?.error('mcp tool failed', { tool: name, error: error instanceof Error ? error.stack : String(error) });
      return toolErrorResult(error, logger?.redactor);
    }
  };
  return server;
}

/**
 * An operation's steps and byte counts as `notifications/progress`: one increasing number, a whole
 * step per line and the fraction of a download between two steps. Sending is best effort: a client
 * that went away does not fail the call.
 */
function progressNotifier(send: (params: { progress: number; total?: number; message?: string }) => Promise<void>): OperationProgress {
  let step = 0;
  const notify = (params: { progress: number; message?: string }) => void send(params).catch(() => undefined);
  return {
    onStep: (line) => notify({ progress: ++step, message: line }),
    onProgress: ({ receivedBytes, totalBytes }) =>
      notify({ progress: step + (totalBytes > 0 ? Math.min(receivedBytes / totalBytes, 0.999) : 0), message: `${receivedBytes} of ${totalBytes} bytes` }),
  };
}

/** MCP structured content is an object; an operation answering anything else is wrapped. */
function toStructured(output: unknown): Record<string, unknown> {
  return output !== null && typeof output === 'object' && !Array.isArray(output) ? (output as Record<string, unknown>) : { result: output ?? null };
}

/** The build's listing of the operation where it has one for this very declaration, else computed now. */
function listingOf(tool: AnyOperation): Tool {
  const prebuilt = PREBUILT_TOOL_LISTINGS?.[tool.name];
  return prebuilt && prebuilt.description === tool.description ? prebuilt : toolListing(tool);
}

/** The `tools/list` entry of an operation: JSON Schemas from its zod schemas, hints from its flags. */
export function toolListing(tool: AnyOperation): Tool {
  return {
    name: tool.name,
    title: toolTitle(tool.name),
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    outputSchema: outputSchema(tool.output) as Tool['outputSchema'],
    annotations: {
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.readOnly ? false : Boolean(tool.destructive),
      idempotentHint: tool.readOnly ? true : Boolean(tool.idempotent),
      openWorldHint: false,
    },
  };
}

/** A person's name for a tool: `start_task_execution` is "Start task execution". */
export function toolTitle(name: string): string {
  const words = name.split('_').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function outputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = jsonSchema(schema, 'output');
  if (json.type === 'object') return json;
  return { type: 'object', properties: { result: json }, required: ['result'] };
}
