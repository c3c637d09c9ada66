// The messages Qwen Code prints in stream-json (one per line) and json (one array) output, narrowed
// at the edge from untrusted JSON to the few fields the provider reads. Shapes were recorded from
// 0.24.4 and 0.21.2 (test/fake-clis/qwen/recordings); unknown fields and blocks are ignored.

export interface QwenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens?: number;
}

export type QwenContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; content: unknown; isError?: boolean };

export type QwenMessage =
  | { type: 'system'; sessionId?: string; subtype?: string }
  | { type: 'assistant'; sessionId?: string; content: QwenContentBlock[]; usage?: QwenUsage }
  | { type: 'user'; sessionId?: string; content: QwenContentBlock[] }
  | {
      type: 'result';
      sessionId?: string;
      subtype?: string;
      isError: boolean;
      result?: string;
      errorMessage?: string;
    }
  /** stream_event (partial deltas, goal state) and any type a later CLI adds. */
  | { type: 'other'; sessionId?: string; rawType: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Narrows one parsed JSON value; undefined when it is not a message at all (no string `type`). */
export function parseQwenMessage(value: unknown): QwenMessage | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  const sessionId = optionalString(value.session_id);
  const body = isObject(value.message) ? value.message : {};
  switch (value.type) {
    case 'system':
      return { type: 'system', sessionId, subtype: optionalString(value.subtype) };
    case 'assistant':
      return { type: 'assistant', sessionId, content: parseContent(body.content), usage: parseUsage(body.usage) };
    case 'user':
      return { type: 'user', sessionId, content: parseContent(body.content) };
    case 'result':
      return {
        type: 'result',
        sessionId,
        subtype: optionalString(value.subtype),
        isError: value.is_error === true,
        result: optionalString(value.result),
        errorMessage: isObject(value.error) ? optionalString(value.error.message) : undefined,
      };
    default:
      return { type: 'other', sessionId, rawType: value.type };
  }
}

function parseContent(content: unknown): QwenContentBlock[] {
  if (!Array.isArray(content)) return [];
  const blocks: QwenContentBlock[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      blocks.push({ type: 'thinking', thinking: block.thinking });
    } else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} });
    } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      blocks.push({
        type: 'tool_result',
        toolUseId: block.tool_use_id,
        content: block.content,
        ...(typeof block.is_error === 'boolean' ? { isError: block.is_error } : {}),
      });
    }
  }
  return blocks;
}

function parseUsage(usage: unknown): QwenUsage | undefined {
  if (!isObject(usage) || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') {
    return undefined;
  }
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    ...(typeof usage.total_tokens === 'number' ? { totalTokens: usage.total_tokens } : {}),
  };
}
