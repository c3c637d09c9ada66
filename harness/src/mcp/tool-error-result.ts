import { SvcError } from '@svc-org/ai-sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Redactor } from '../../../host/src/logging/index.js';

/**
 * An error as a tool result: `isError` and our `{code, message, details?}` as JSON text. No
 * `structuredContent`: clients check it against the tool's output schema, which describes success.
 * Anything that is not a coded error is `internal` and says nothing of its cause.
 */
export function toolErrorResult(error: unknown, redactor?: Redactor): CallToolResult {
  const body = SvcError.hasCode(error)
    ? {
        code: error.code,
        message: error.message,
        ...((error as { details?: Record<string, unknown> }).details ? { details: (error as { details?: Record<string, unknown> }).details } : {}),
      }
    : { code: 'internal', message: 'internal error (see the svc log)' };
  const text = JSON.stringify({ error: body });
  return { isError: true, content: [{ type: 'text', text: redactor ? redactor.text(text) : text }] };
}
