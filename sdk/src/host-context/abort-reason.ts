import { SvcError } from '../errors/svc-error.js';

/** Why a call's signal was aborted: the user (or the caller) cancelled it, or its deadline passed. */
export type AbortKind = 'cancelled' | 'timeout';

/**
 * Tells a deadline from a cancel on `ctx.signal`. The host aborts the signal with an error whose
 * `code` is `timeout` when the call's deadline passed and `cancelled` otherwise; any other reason
 * (a plain `controller.abort()` in a test) counts as a cancel. Undefined while the signal is live.
 */
export function abortReason(signal: AbortSignal): AbortKind | undefined {
  if (!signal.aborted) return undefined;
  const reason: unknown = signal.reason;
  return SvcError.hasCode(reason) && reason.code === 'timeout' ? 'timeout' : 'cancelled';
}

/** The reason the host aborts a call's signal with; test hosts use it to act exactly like the host. */
export function abortError(kind: AbortKind): SvcError {
  return new SvcError({
    code: kind,
    message: kind === 'timeout' ? 'the call was timed out by the host' : 'the call was cancelled by the host',
  });
}
