import type { SessionAttachments, SessionHookCommand } from '@svc-org/ai-sdk';
import { tomlKey, tomlString, tomlStringArray } from '../toml/format-toml.js';

/**
 * The host's attachments as `-c` overrides of this run's configuration (the user's config.toml and
 * hooks.json are never edited): `mcp_servers.<name>`, inline `hooks.<Event>` tables (`Stop`,
 * `UserPromptSubmit`, `PreToolUse` matched by tool name, `PermissionRequest`; the session runs with
 * `--dangerously-bypass-hook-trust`, so they run without a review), `notify` for the legacy
 * agent-turn-complete callback (given the Stop hook's command: it reports the same turn id) and
 * `developer_instructions` for the directive. Each attached MCP server is `required=true`: Codex gives an
 * optional server a one-second start-up grace and otherwise leaves its tools out of the turn, so on a
 * busy machine the task's own `ask_human` could be missing from its first turn.
 */
export function attachmentArgs(attachments: SessionAttachments | undefined): string[] {
  if (!attachments) return [];
  const args: string[] = [];
  for (const server of attachments.mcpServers ?? []) {
    const fields = [`command=${tomlString(server.command)}`, `args=${tomlStringArray(server.args ?? [])}`];
    const env = Object.entries(server.env ?? {});
    if (env.length > 0) fields.push(`env={${env.map(([key, value]) => `${tomlKey(key)}=${tomlString(value)}`).join(',')}}`);
    fields.push('required=true');
    args.push('-c', `mcp_servers.${tomlKey(server.name)}={${fields.join(',')}}`);
  }
  const { stop, promptSubmit, preToolUse, permissionRequest } = attachments.hooks ?? {};
  if (stop) {
    args.push('-c', `hooks.Stop=[{hooks=[${hookEntry(stop)}]}]`);
    args.push('-c', `notify=${tomlStringArray([...stop.command, 'codex-notify'])}`);
  }
  if (promptSubmit) args.push('-c', `hooks.UserPromptSubmit=[{hooks=[${hookEntry(promptSubmit)}]}]`);
  if (preToolUse && preToolUse.toolNames.length > 0) {
    args.push('-c', `hooks.PreToolUse=[{matcher=${tomlString(toolMatcher(preToolUse.toolNames))},hooks=[${hookEntry(preToolUse)}]}]`);
  }
  // Codex runs it for its shell, exec and network approval prompts (tool_name Bash).
  if (permissionRequest) args.push('-c', `hooks.PermissionRequest=[{hooks=[${hookEntry(permissionRequest)}]}]`);
  if (attachments.directive) args.push('-c', `developer_instructions=${tomlString(attachments.directive)}`);
  return args;
}

function hookEntry(hook: SessionHookCommand): string {
  return `{type="command",command=${tomlString(shellCommand(hook.command))}${hook.timeoutSec ? `,timeout=${hook.timeoutSec}` : ''}}`;
}

/** Codex hook commands run through the shell. */
function shellCommand(argv: string[]): string {
  return argv.map((word) => (/^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Codex matchers are regular expressions over the tool name; anchored so nothing else matches. */
function toolMatcher(names: string[]): string {
  return `^(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
}
