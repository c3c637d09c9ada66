import type { SessionRequest } from '@svc-org/ai-sdk';
import { attachmentArgs } from './attachment-args.js';
import { flagWithValue } from './flag-with-value.js';

/**
 * Arguments of the interactive CLI for a terminal session; the host's attachments come before the
 * base args, which go last.
 */
export function buildSessionArgs(request: SessionRequest): string[] {
  const args: string[] = [];
  if (request.model) args.push(...flagWithValue('--model', request.model));
  if (request.mode === 'resume') {
    // Without an id, "resume" means the most recent session of the project, which is --continue
    // (a bare --resume would open Qwen Code's session picker instead).
    args.push(...(request.sessionId ? flagWithValue('--resume', request.sessionId) : ['--continue']));
  }
  args.push(...attachmentArgs(request.attachments));
  args.push(...(request.baseArgs ?? []));
  return args;
}
