import type { CodexItem } from './codex-thread-event.js';

// How Codex's tool-like items become canonical tool calls and results, paired by `item.id`. The
// tool names are Codex's own item types, except MCP calls, which take the `mcp__<server>__<tool>`
// name Codex gives the model for them.
export interface CodexToolItem {
  toolName(item: CodexItem): string;
  input(item: CodexItem): unknown;
  output(item: CodexItem): unknown;
  isError(item: CodexItem): boolean;
}

const field = (item: CodexItem, name: string): unknown => item[name] ?? null;

export const CODEX_TOOL_ITEMS: Record<string, CodexToolItem> = {
  command_execution: {
    toolName: () => 'command_execution',
    input: (item) => ({ command: field(item, 'command') }),
    output: (item) => ({ exitCode: field(item, 'exit_code'), output: field(item, 'aggregated_output') }),
    isError: (item) => item.status !== 'completed',
  },
  file_change: {
    toolName: () => 'file_change',
    input: (item) => ({ changes: field(item, 'changes') }),
    output: (item) => ({ status: field(item, 'status') }),
    isError: (item) => item.status !== 'completed',
  },
  mcp_tool_call: {
    toolName: (item) => `mcp__${String(item.server)}__${String(item.tool)}`,
    input: (item) => field(item, 'arguments'),
    output: (item) => (item.error ? { error: item.error } : field(item, 'result')),
    isError: (item) => item.status === 'failed' || Boolean(item.error),
  },
  web_search: {
    toolName: () => 'web_search',
    input: (item) => ({ query: field(item, 'query') }),
    output: (item) => ({ action: field(item, 'action') }),
    isError: () => false,
  },
  todo_list: {
    toolName: () => 'todo_list',
    input: (item) => ({ items: field(item, 'items') }),
    output: (item) => ({ items: field(item, 'items') }),
    isError: () => false,
  },
  collab_tool_call: {
    toolName: (item) => `collab__${String(item.tool)}`,
    input: (item) => ({ prompt: field(item, 'prompt'), receiverThreadIds: field(item, 'receiver_thread_ids') }),
    output: (item) => ({ status: field(item, 'status'), agentsStates: field(item, 'agents_states') }),
    isError: (item) => item.status === 'failed',
  },
};
