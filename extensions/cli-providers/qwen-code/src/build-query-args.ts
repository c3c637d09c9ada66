import { ErrorCodes, SvcError, type QueryRequest } from '@svc-org/ai-sdk';
import { flagWithValue } from './flag-with-value.js';

export type QwenOutputFormat = 'json' | 'stream-json';

/**
 * Arguments of a headless query. The contract names `--prompt` (deprecated in favour of a positional
 * prompt since 0.15, still accepted by 0.24.4) and `--output-format`. A request with both `resume`
 * and `continue` resumes the named session: an id is the more specific ask.
 */
export function buildQueryArgs(request: QueryRequest, format: QwenOutputFormat): string[] {
  if (typeof request.prompt !== 'string' || request.prompt.length === 0) {
    throw new SvcError({ code: ErrorCodes.invalidRequest, message: 'request.prompt must be a non-empty string' });
  }
  const args = [...flagWithValue('--prompt', request.prompt), '--output-format', format];
  if (request.model) args.push(...flagWithValue('--model', request.model));
  if (request.resume) args.push(...flagWithValue('--resume', request.resume));
  else if (request.continue) args.push('--continue');
  if (request.maxTurns !== undefined) {
    if (!Number.isInteger(request.maxTurns) || request.maxTurns < 1) {
      throw new SvcError({ code: ErrorCodes.invalidRequest, message: 'request.maxTurns must be a positive integer' });
    }
    args.push('--max-session-turns', String(request.maxTurns));
  }
  args.push(...(request.baseArgs ?? []));
  return args;
}
