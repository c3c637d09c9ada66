import type { SessionAttachments } from '@svc-org/ai-sdk';
import { flagWithValue } from './flag-with-value.js';

/**
 * The host's attachments Qwen Code takes as per-run flags: `--mcp-config` (servers beside the
 * user's own) and `--append-system-prompt` (the directive). Hooks go in a settings file instead
 * (attachment-settings.ts).
 */
export function attachmentArgs(attachments: SessionAttachments | undefined): string[] {
  const args: string[] = [];
  if (!attachments) return args;
  const servers = attachments.mcpServers ?? [];
  if (servers.length > 0) {
    const mcpServers = Object.fromEntries(servers.map((server) => [server.name, { command: server.command, args: server.args ?? [], env: server.env ?? {} }]));
    args.push(...flagWithValue('--mcp-config', JSON.stringify({ mcpServers })));
  }
  if (attachments.directive) args.push(...flagWithValue('--append-system-prompt', attachments.directive));
  return args;
}
