/**
 * The codes with which an answer in progress fails when its client left: a page navigating away
 * closes its live-updates stream (`ERR_STREAM_PREMATURE_CLOSE`), a connection reset or closed while
 * the answer is written (`ECONNRESET`, `EPIPE`, `ECONNABORTED`). Nothing went wrong on the service's side.
 */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** True when an error of an answer that had started only says its client went away. */
export function clientWentAway(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && CLIENT_GONE.has(code)) return true;
  // Node's request stream ends with a plain "aborted" error when the client hangs up mid-body.
  return error instanceof Error && error.message === 'aborted';
}
