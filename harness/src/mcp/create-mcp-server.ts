// The MCP adapter over operations: `tools/list` and `tools/call` for one profile.
// The SDK's low-level `Server` (not `McpServer`): the profile gate, our coded errors and the
// schema error that names the field are ours to shape, and every tool is already an operation.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Logger } from '../../../host/src/logging/index.js';
import type { AnyOperation, OperationContext } from '../../../host/src/operations/index.js';
import type { CapabilityDefinition } from './capability-definition.js';
import { forwardToService } from './forward-to-service.js';
import type { McpProfile } from './mcp-profile.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { toolErrorResult } from './tool-error-result.js';

export interface McpServerOptions {
  definition: CapabilityDefinition;
  profile: McpProfile;
  version: string;
  /** Opened on the first call, so that `initialize` and `tools/list` answer without the database. */
  context: () => Promise<OperationContext>;
  logger?: () => Logger | undefined;
}

export function createMcpServer(options: McpServerOptions): Server {
  const tools = new Map(options.definition.toolsOf(options.profile).map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: 'svc', version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'svc manages workspaces, projects, tasks and their CLI terminals. Typical work: create_task, start_task_execution, ' +
        'poll get_task_terminal_output with the returned cursor, send_task_terminal_input, get_task_terminal_status.',
    },
  );
  let listed: Tool[] | undefined;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: (listed ??= [...tools.values()].map(toolListing)) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    // A tool outside the profile is answered exactly like a tool that does not exist.
    if (!tool) return toolErrorResult(new SvcError({ code: 'unknown_tool', message: `Tool ${request.params.name} not found` }));
    let context: OperationContext | undefined;
    try {
      const input = parseToolArguments(tool.name, tool.input, request.params.arguments) as Record<string, unknown>;
      context = await options.context();
      const output = await runTool(tool, input, context);
      const structured = toStructured(output);
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      const logger = context?.services.logger ?? options.logger?.();
      if (!SvcError.hasCode(error)) logger?.error('mcp tool failed', { tool: tool.name, error: error instanceof Error ? error.stack : String(error) });
      else logger?.info('mcp tool refused', { tool: tool.name, code: error.code });
      return toolErrorResult(error, logger?.redactor);
    }
  });
  return server;
}

async function runTool(tool: AnyOperation, input: Record<string, unknown>, context: OperationContext): Promise<unknown> {
  if (tool.runsIn === 'service' && !context.terminals) return forwardToService(tool, input, context.services.svcHome);
  return tool.output.parse(await tool.handler(input, context));
}

/** MCP structured content is an object; an operation answering anything else is wrapped. */
function toStructured(output: unknown): Record<string, unknown> {
  return output !== null && typeof output === 'object' && !Array.isArray(output) ? (output as Record<string, unknown>) : { result: output };
}

function toolListing(tool: AnyOperation): Tool {
  return {
    name: tool.name,
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

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function outputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = jsonSchema(schema, 'output');
  if (json.type === 'object') return json;
  return { type: 'object', properties: { result: json }, required: ['result'] };
}
