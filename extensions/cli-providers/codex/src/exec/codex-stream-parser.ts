import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { classifyCodexFailure } from './classify-codex-failure.js';
import { decodeThreadEvent, UndecodedLine, type CodexItem, type CodexThreadEvent } from './codex-thread-event.js';
import { CODEX_TOOL_ITEMS } from './codex-tool-items.js';

/**
 * What the parser makes of the stream: canonical events, warnings (the result's `warnings`; there is
 * no canonical warning event), and the thread's cumulative usage, which the caller turns into a
 * delta because only it can read the previous total.
 */
export type CodexParserOutput =
  | CliStreamEvent
  | { type: 'warning'; message: string }
  | { type: 'thread-usage'; threadId: string | undefined; inputTokens: number; outputTokens: number };

const RETRY_NOTICE = /^Reconnecting\.\.\./;
// What most lines make: one shared empty answer instead of an array per line (callers only read it).
const NOTHING: readonly CodexParserOutput[] = Object.freeze([]);
const MESSAGE_SEPARATOR = '\n\n';

function preview(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Maps `codex exec --json` lines to canonical events, one line at a time. Traps it handles:
 * the session id only in `thread.started`; `item.completed` of type `error` is a warning; a
 * top-level `error` is a retry notice or the echo of a `turn.failed` that follows, and fatal only
 * through `turn.failed` or the exit code; tool items come as started→completed pairs or as a lone
 * completed; `turn.completed.usage` is cumulative for the thread.
 */
export class CodexStreamParser {
  sessionId: string | undefined;
  failure: { code: string; message: string } | undefined;
  turnCompleted = false;
  private readonly called = new Set<string>();
  private readonly answered = new Set<string>();
  private pendingErrors: string[] = [];
  private hasText = false;
  private hasReasoning = false;

  push(line: string): readonly CodexParserOutput[] {
    // A line that opens an object is not blank: no trim for it.
    if (line.charCodeAt(0) !== 123 && line.trim() === '') return NOTHING;
    const decoded = decodeThreadEvent(line);
    if (decoded instanceof UndecodedLine) {
      return decoded.kind === 'invalid'
        ? [{ type: 'warning', message: `codex printed a line that is not an event (${decoded.detail}): ${preview(line)}` }]
        : [{ type: 'warning', message: `ignored a codex event of unknown type "${decoded.detail}": ${preview(line)}` }];
    }
    return this.onEvent(decoded);
  }

  /** Top-level `error` messages that no `turn.failed` followed: non-fatal unless the process failed. */
  takePendingErrors(): string[] {
    const pending = this.pendingErrors;
    this.pendingErrors = [];
    return pending;
  }

  private onEvent(event: CodexThreadEvent): readonly CodexParserOutput[] {
    switch (event.type) {
      case 'thread.started':
        if (event.thread_id === this.sessionId) return NOTHING;
        this.sessionId = event.thread_id;
        return [{ type: 'session', sessionId: event.thread_id }];
      case 'turn.started':
        return NOTHING;
      case 'turn.completed':
        this.turnCompleted = true;
        return [
          {
            type: 'thread-usage',
            threadId: this.sessionId,
            inputTokens: event.usage.input_tokens,
            outputTokens: event.usage.output_tokens,
          },
        ];
      case 'turn.failed': {
        const message = event.error.message;
        this.failure = { code: classifyCodexFailure(message), message };
        this.pendingErrors = this.pendingErrors.filter((pending) => pending !== message);
        return [{ type: 'error', code: this.failure.code, message }];
      }
      case 'error':
        if (RETRY_NOTICE.test(event.message)) return [{ type: 'warning', message: event.message }];
        this.pendingErrors.push(event.message);
        return NOTHING;
      default:
        return this.onItem(event.type, event.item);
    }
  }

  private onItem(phase: 'item.started' | 'item.updated' | 'item.completed', item: CodexItem): readonly CodexParserOutput[] {
    const completed = phase === 'item.completed';
    switch (item.type) {
      case 'agent_message':
      case 'plan':
        // Whole messages only arrive completed; a started/updated one would be superseded by it.
        if (!completed || typeof item.text !== 'string') return NOTHING;
        return [{ type: 'text', text: this.join('text', item.text) }];
      case 'reasoning':
        if (!completed || typeof item.text !== 'string') return NOTHING;
        return [{ type: 'reasoning', text: this.join('reasoning', item.text) }];
      case 'error':
        return completed ? [{ type: 'warning', message: typeof item.message === 'string' ? item.message : JSON.stringify(item) }] : [];
      default:
        return this.onToolItem(completed, item);
    }
  }

  private onToolItem(completed: boolean, item: CodexItem): readonly CodexParserOutput[] {
    const mapping = CODEX_TOOL_ITEMS[item.type];
    if (!mapping) {
      return completed ? [{ type: 'warning', message: `ignored a codex item of unknown type "${item.type}": ${preview(JSON.stringify(item))}` }] : [];
    }
    const call = !this.called.has(item.id);
    const answer = completed && !this.answered.has(item.id);
    if (!call && !answer) return NOTHING;
    const out: CodexParserOutput[] = [];
    const toolName = mapping.toolName(item);
    if (call) {
      this.called.add(item.id);
      out.push({ type: 'tool-call', toolCallId: item.id, toolName, input: mapping.input(item) });
    }
    if (answer) {
      this.answered.add(item.id);
      out.push({ type: 'tool-result', toolCallId: item.id, toolName, output: mapping.output(item), isError: mapping.isError(item) });
    }
    return out;
  }

  /** Separate consecutive messages (commentary, then the answer) the way Codex shows them. */
  private join(kind: 'text' | 'reasoning', text: string): string {
    const seen = kind === 'text' ? this.hasText : this.hasReasoning;
    if (kind === 'text') this.hasText = true;
    else this.hasReasoning = true;
    return seen ? `${MESSAGE_SEPARATOR}${text}` : text;
  }
}
