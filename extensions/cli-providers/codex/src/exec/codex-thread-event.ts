// One line of `codex exec --json` (ThreadEvent in codex-rs/exec/src/exec_events.rs, serde tag
// "type"), narrowed at the edge. Fields the adapter does not read stay in `item` untouched.

export interface CodexUsage {
  input_tokens: number;
  cached_input_tokens?: number;
  cache_write_input_tokens?: number;
  output_tokens: number;
  reasoning_output_tokens?: number;
}

export interface CodexItem {
  id: string;
  type: string;
  [field: string]: unknown;
}

export type CodexThreadEvent =
  | { type: 'thread.started'; thread_id: string }
  | { type: 'turn.started' }
  | { type: 'turn.completed'; usage: CodexUsage }
  | { type: 'turn.failed'; error: { message: string } }
  | { type: 'item.started' | 'item.updated' | 'item.completed'; item: CodexItem }
  | { type: 'error'; message: string };

export type DecodedLine =
  | { kind: 'event'; event: CodexThreadEvent }
  | { kind: 'unknown'; type: string }
  | { kind: 'invalid'; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function decodeItem(value: unknown): CodexItem | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.type !== 'string') return undefined;
  return value as CodexItem;
}

export function decodeThreadEvent(line: string): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  if (!isObject(value) || typeof value.type !== 'string') return { kind: 'invalid', reason: 'no "type" field' };
  switch (value.type) {
    case 'thread.started':
      return typeof value.thread_id === 'string'
        ? { kind: 'event', event: { type: 'thread.started', thread_id: value.thread_id } }
        : { kind: 'invalid', reason: 'thread.started without thread_id' };
    case 'turn.started':
      return { kind: 'event', event: { type: 'turn.started' } };
    case 'turn.completed': {
      const usage = value.usage;
      if (!isObject(usage) || !isCount(usage.input_tokens) || !isCount(usage.output_tokens)) {
        return { kind: 'invalid', reason: 'turn.completed without usage counts' };
      }
      return { kind: 'event', event: { type: 'turn.completed', usage: usage as unknown as CodexUsage } };
    }
    case 'turn.failed': {
      const error = value.error;
      const message = isObject(error) && typeof error.message === 'string' ? error.message : undefined;
      return message === undefined
        ? { kind: 'invalid', reason: 'turn.failed without error.message' }
        : { kind: 'event', event: { type: 'turn.failed', error: { message } } };
    }
    case 'item.started':
    case 'item.updated':
    case 'item.completed': {
      const item = decodeItem(value.item);
      return item
        ? { kind: 'event', event: { type: value.type, item } }
        : { kind: 'invalid', reason: `${value.type} without item.id/item.type` };
    }
    case 'error':
      return typeof value.message === 'string'
        ? { kind: 'event', event: { type: 'error', message: value.message } }
        : { kind: 'invalid', reason: 'error without message' };
    default:
      return { kind: 'unknown', type: value.type };
  }
}
