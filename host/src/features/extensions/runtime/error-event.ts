import type { CliStreamEvent, SvcErrorData } from '@svc-org/ai-sdk';

/** A call's failure as the stream's `error` event: the fix a provider gave (`details.fix`) travels with it. */
export function errorEvent(error: SvcErrorData): Extract<CliStreamEvent, { type: 'error' }> {
  const fix = error.details?.fix;
  return { type: 'error', code: error.code, message: error.message, ...(typeof fix === 'string' ? { fix } : {}) };
}
