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

/** A line that is not an event svc reads: not JSON or missing a field (`invalid`), or of a type it does not know. */
export class UndecodedLine {
  constructor(
    readonly kind: 'invalid' | 'unknown',
    /** Why it is invalid, or the unknown type. */
    readonly detail: string,
  ) {}
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

const invalid = (reason: string) => new UndecodedLine('invalid', reason);

/**
 * One line, checked for the fields the parser reads; the parsed object itself is the event (no copy:
 * this runs for every line of the stream).
 */
export function decodeThreadEvent(line: string): CodexThreadEvent | UndecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return invalid('not JSON');
  }
  if (!isObject(value) || typeof value.type !== 'string') return invalid('no "type" field');
  switch (value.type) {
    case 'thread.started':
      return typeof value.thread_id === 'string' ? (value as CodexThreadEvent) : invalid('thread.started without thread_id');
    case 'turn.started':
      return value as CodexThreadEvent;
    case 'turn.completed': {
      const usage = value.usage;
      return isObject(usage) && isCount(usage.input_tokens) && isCount(usage.output_tokens)
        ? (value as CodexThreadEvent)
        : invalid('turn.completed without usage counts');
    }
    case 'turn.failed': {
      const error = value.error;
      return isObject(error) && typeof error.message === 'string' ? (value as CodexThreadEvent) : invalid('turn.failed without error.message');
    }
    case 'item.started':
    case 'item.updated':
    case 'item.completed': {
      const item = value.item;
      return isObject(item) && typeof item.id === 'string' && typeof item.type === 'string'
        ? (value as CodexThreadEvent)
        : invalid(`${value.type} without item.id/item.type`);
    }
    case 'error':
      return typeof value.message === 'string' ? (value as CodexThreadEvent) : invalid('error without message');
    default:
      return new UndecodedLine('unknown', value.type);
  }
}
