import type { SendOutcome } from './gateway-client.js';

/** The `error` of an OpenClaw `res` frame. */
export interface OpenClawError {
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
  retryable?: boolean;
}

/** OpenClaw's error answer to `send`, mapped to what the outbox may do next. */
export function classifyOpenClawError(error: OpenClawError): SendOutcome {
  const code = error.code ?? 'UNKNOWN';
  const message = `${code}: ${error.message ?? 'no message'}`;
  const detail = error.details ?? {};
  // The gateway holds the message (or sent part of it) and says it must not be asked again.
  if (detail.code === 'OUTBOUND_DELIVERY_QUEUED' || detail.partialDelivery !== undefined) {
    return { kind: 'unverified', code: detail.code === 'OUTBOUND_DELIVERY_QUEUED' ? 'outbound_delivery_queued' : 'partial_delivery', message };
  }
  if (code === 'INVALID_REQUEST') return { kind: 'refused', code: 'gateway_invalid_request', message };
  return { kind: 'retry', code: `gateway_${code.toLowerCase()}`, message };
}
