import type { SessionRequest } from '@svc-org/ai-sdk';
import { codexOptionArgs } from '../settings/codex-option-args.js';
import type { CodexSettings } from '../settings/codex-settings.js';
import { attachmentArgs } from './attachment-args.js';

/**
 * Arguments of the interactive CLI (the TUI) for a terminal session:
 *   fresh:               codex  <options>
 *   resume an id:        codex resume <options> <id>
 *   resume most recent:  codex resume --last <options>
 * Every session gets `--dangerously-bypass-hook-trust`, as the harness contract asks for this
 * provider: its PreToolUse hook must run in terminals even before anyone reviewed it in `/hooks`.
 */
export function buildSessionArgs(request: SessionRequest, settings: CodexSettings): string[] {
  const options = [
    '--dangerously-bypass-hook-trust',
    ...attachmentArgs(request.attachments),
    ...codexOptionArgs(settings, request.model ?? settings.model),
    ...(request.baseArgs ?? []),
  ];
  if (request.mode === 'fresh') return options;
  if (request.sessionId) return ['resume', ...options, request.sessionId];
  return ['resume', '--last', ...options];
}
