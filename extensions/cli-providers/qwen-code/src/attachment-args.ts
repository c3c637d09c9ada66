import type { SessionAttachments, UnsupportedAttachment } from '@svc-org/ai-sdk';
import { flagWithValue } from './flag-with-value.js';

/**
 * The host's attachments as Qwen Code's per-run flags: `--mcp-config` (servers beside the user's
 * own) and `--append-system-prompt` (the directive). Qwen Code takes hooks only from its settings
 * files, which belong to the user: hooks are reported as unsupported rather than written there.
 */
export function attachmentArgs(attachments: SessionAttachments | undefined): { args: string[]; unsupported: UnsupportedAttachment[] } {
  const args: string[] = [];
  const unsupported: UnsupportedAttachment[] = [];
  if (!attachments) return { args, unsupported };
  const servers = attachments.mcpServers ?? [];
  if (servers.length > 0) {
    const mcpServers = Object.fromEntries(servers.map((server) => [server.name, { command: server.command, args: server.args ?? [], env: server.env ?? {} }]));
    args.push(...flagWithValue('--mcp-config', JSON.stringify({ mcpServers })));
  }
  if (attachments.directive) args.push(...flagWithValue('--append-system-prompt', attachments.directive));
  const hooks = attachments.hooks ?? {};
  const reason = 'Qwen Code reads hooks only from its settings files; it has no per-run hook flag';
  if (hooks.stop) unsupported.push({ kind: 'stopHook', reason });
  if (hooks.promptSubmit) unsupported.push({ kind: 'promptSubmitHook', reason });
  if (hooks.preToolUse) unsupported.push({ kind: 'preToolUseHook', reason });
  return { args, unsupported };
}
