import type { SessionRequest } from '@svc-org/ai-sdk';
import type { ClaudeCodeSettings } from '../settings/claude-code-settings.js';
import { checkFlagValue } from '../settings/check-flag-value.js';
import { optionArgs } from '../settings/option-args.js';
import { attachmentArgs } from './attachment-args.js';

/**
 * The interactive CLI's arguments: `--resume <id>` (or `--continue` for the most recent session of
 * the cwd), then model and permission mode, then the plugin's extra args and the connection's base
 * args last, so a user's own flag wins over ours (the CLI keeps the last value of a repeated flag).
 * The host's attachments (MCP servers, hooks, directive) come before the user's flags.
 */
export function buildSessionArgs(request: SessionRequest, settings: ClaudeCodeSettings): string[] {
  const args: string[] = [];
  if (request.mode === 'resume') {
    if (request.sessionId !== undefined) args.push('--resume', checkFlagValue(request.sessionId, 'sessionId'));
    else args.push('--continue');
  }
  const model = request.model ?? settings.model;
  args.push(...optionArgs(model === undefined ? undefined : checkFlagValue(model, 'model'), settings));
  args.push(...attachmentArgs(request.attachments));
  args.push(...settings.extraArgs, ...(request.baseArgs ?? []));
  return args;
}
