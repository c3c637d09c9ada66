// The stream-json lines of `claude -p --output-format stream-json --verbose` (2.1.197), as far as the
// parser reads them. Every field is optional and checked where it is read: the CLI adds fields and
// reorders keys between builds, and the parser must never trust a shape it has not checked.

export interface ClaudeContentBlock {
  type?: unknown;
  text?: unknown;
  thinking?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
}

export interface ClaudeMessage {
  id?: unknown;
  model?: unknown;
  content?: unknown;
}

export interface ClaudeResultUsage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
}

/** One line. `type` is the only field every line has. */
export interface ClaudeStreamLine {
  type: string;
  subtype?: unknown;
  session_id?: unknown;
  message?: ClaudeMessage;
  /** On synthetic assistant lines: the CLI's error kind (authentication_failed, rate_limit, invalid_request…). */
  error?: unknown;
  /** stream_event lines (--include-partial-messages): one Anthropic SSE event. */
  event?: {
    type?: unknown;
    index?: unknown;
    message?: ClaudeMessage;
    content_block?: ClaudeContentBlock;
    delta?: { type?: unknown; text?: unknown; thinking?: unknown };
  };
  // system/api_retry
  attempt?: unknown;
  max_retries?: unknown;
  error_status?: unknown;
  // result
  is_error?: unknown;
  api_error_status?: unknown;
  result?: unknown;
  stop_reason?: unknown;
  usage?: ClaudeResultUsage;
  total_cost_usd?: unknown;
  errors?: unknown;
  isReplay?: unknown;
}

/** Parses one line at the edge; `undefined` when it is not a JSON object with a string `type`. */
export function parseClaudeStreamLine(line: string): ClaudeStreamLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return typeof (value as { type?: unknown }).type === 'string' ? (value as ClaudeStreamLine) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function asBlocks(value: unknown): ClaudeContentBlock[] {
  return Array.isArray(value) ? value.filter((block): block is ClaudeContentBlock => typeof block === 'object' && block !== null) : [];
}
