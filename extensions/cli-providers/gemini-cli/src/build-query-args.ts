import { SvcError, type QueryRequest } from '@svc-org/ai-sdk';
import { buildCommonArgs } from './build-common-args.js';
import type { ProviderSettings } from './provider-settings.js';

export type GeminiOutputFormat = 'json' | 'stream-json';

export interface QueryArgs {
  args: string[];
  /** Parts of the request the CLI cannot honour, said once instead of dropped silently. */
  warnings: string[];
}

/**
 * Headless arguments: common args, `-r <uuid>` (or `-r latest` for `continue`), `-o <format>`, and the
 * prompt as one `--prompt=<text>` word, so that a prompt starting with "-" stays a value for yargs.
 */
export function buildQueryArgs(request: QueryRequest, settings: ProviderSettings, format: GeminiOutputFormat): QueryArgs {
  if (typeof request.prompt !== 'string' || request.prompt.trim() === '') {
    throw new SvcError({ code: 'invalid_request', message: 'a Gemini CLI query needs a non-empty prompt' });
  }
  const warnings: string[] = [];
  const args = buildCommonArgs(request, settings);
  if (request.resume) args.push('-r', request.resume);
  else if (request.continue) args.push('-r', 'latest');
  if (request.maxTurns !== undefined) {
    warnings.push(
      `maxTurns ${request.maxTurns} was not applied: the Gemini CLI has no flag for it (set model.maxSessionTurns in its settings.json)`,
    );
  }
  args.push('-o', format, `--prompt=${request.prompt}`);
  return { args, warnings };
}
