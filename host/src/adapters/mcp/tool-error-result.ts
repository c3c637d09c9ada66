import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { publicError } from '../../platform/errors/index.js';
import type { Redactor } from '../../platform/logging/index.js';

/**
 * An error as a tool result: `isError` and our `{code, message, details?}` as JSON text, so the
 * agent can read it and act. The error registry decides what may be shown; anything else is
 * `internal` and says nothing of its cause. No `structuredContent`: clients check that against the
 * tool's output schema, which describes success.
 */
export function toolErrorResult(error: unknown, redactor?: Redactor): CallToolResult {
  const { code, message, details } = publicError(error);
  const text = JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } });
  return { isError: true, content: [{ type: 'text', text: redactor ? redactor.text(text) : text }] };
}
