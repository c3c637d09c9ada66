import { SvcError, type QueryRequest } from '@svc-org/ai-sdk';
import type { ClaudeCodeSettings } from '../settings/claude-code-settings.js';
import { checkFlagValue } from '../settings/check-flag-value.js';
import { optionArgs } from '../settings/option-args.js';

export interface QueryArgsOptions {
  /** Adds `--include-partial-messages`: text and reasoning arrive as deltas, not one block at a time. */
  partial: boolean;
}

/**
 * Headless arguments. The prompt is not among them: it goes to stdin, so a prompt that starts with
 * "-" is never read as a flag and does not show in the process list. `--verbose` is required by the
 * CLI with stream-json under -p (without it: "requires --verbose", exit 1). `--max-turns` is hidden
 * from `--help` but real (print mode only).
 */
export function buildQueryArgs(request: QueryRequest, settings: ClaudeCodeSettings, options: QueryArgsOptions): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose'];
  if (options.partial) args.push('--include-partial-messages');
  if (request.resume !== undefined) args.push('--resume', checkFlagValue(request.resume, 'resume'));
  else if (request.continue) args.push('--continue');
  const model = request.model ?? settings.model;
  args.push(...optionArgs(model === undefined ? undefined : checkFlagValue(model, 'model'), settings));
  if (request.maxTurns !== undefined) {
    if (!Number.isInteger(request.maxTurns) || request.maxTurns < 1) {
      throw new SvcError({ code: 'invalid_request', message: 'maxTurns must be a positive integer' });
    }
    args.push('--max-turns', String(request.maxTurns));
  }
  args.push(...settings.extraArgs, ...(request.baseArgs ?? []));
  return args;
}
