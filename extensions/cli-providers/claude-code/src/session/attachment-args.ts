import type { SessionAttachments, SessionHookCommand } from '@svc-org/ai-sdk';
import { shellCommand } from './shell-command.js';

/**
 * The host's attachments as per-run flags (nothing is written to the user's files):
 * `--mcp-config` (servers beside the user's own), `--settings` (hooks: `Stop`, `UserPromptSubmit`,
 * `PreToolUse` matched by tool name, `PermissionRequest` for every tool) and `--append-system-prompt` (the directive). Claude Code
 * merges `--settings` hooks with the user's settings, and runs them also under
 * `--dangerously-skip-permissions`.
 */
export function attachmentArgs(attachments: SessionAttachments | undefined): string[] {
  if (!attachments) return [];
  const args: string[] = [];
  const servers = attachments.mcpServers ?? [];
  if (servers.length > 0) {
    const mcpServers = Object.fromEntries(
      servers.map((server) => [server.name, { type: 'stdio', command: server.command, args: server.args ?? [], env: server.env ?? {} }]),
    );
    args.push('--mcp-config', JSON.stringify({ mcpServers }));
  }
  const hooks: Record<string, unknown[]> = {};
  const { stop, promptSubmit, preToolUse, permissionRequest } = attachments.hooks ?? {};
  if (stop) hooks.Stop = [{ hooks: [hookEntry(stop)] }];
  if (promptSubmit) hooks.UserPromptSubmit = [{ hooks: [hookEntry(promptSubmit)] }];
  if (preToolUse && preToolUse.toolNames.length > 0) {
    hooks.PreToolUse = [{ matcher: toolMatcher(preToolUse.toolNames), hooks: [hookEntry(preToolUse)] }];
  }
  // Claude Code runs it only where it would show its permission dialog (never under bypassPermissions).
  if (permissionRequest) hooks.PermissionRequest = [{ hooks: [hookEntry(permissionRequest)] }];
  if (Object.keys(hooks).length > 0) args.push('--settings', JSON.stringify({ hooks }));
  if (attachments.directive) args.push('--append-system-prompt', attachments.directive);
  return args;
}

function hookEntry(hook: SessionHookCommand): Record<string, unknown> {
  return { type: 'command', command: shellCommand(hook.command), ...(hook.timeoutSec ? { timeout: hook.timeoutSec } : {}) };
}

/** Claude Code matchers are regular expressions over the tool name; anchored so nothing else matches. */
function toolMatcher(names: string[]): string {
  return `^(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
}
