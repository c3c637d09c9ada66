import { ErrorCodes, type CliStreamEvent, type ProcessExit } from '@svc-org/ai-sdk';
import { classifyResult } from './classify-result.js';
import { asBlocks, asNumber, asString, parseClaudeStreamLine, type ClaudeStreamLine } from './claude-stream-line.js';

export interface ParseStep {
  events: CliStreamEvent[];
  warnings: string[];
  /** Set when the run must end now (the CLI would otherwise keep retrying a dead credential). */
  stop?: boolean;
}

/** A text or thinking block being streamed by `stream_event` deltas (--include-partial-messages). */
interface OpenBlock {
  messageId: string | undefined;
  index: number;
  kind: 'text' | 'thinking';
  streamed: string;
}

// Claude Code retries a 401 ten times over about two and a half minutes. The first retry may be an
// OAuth token refresh, so a second consecutive authentication failure ends the run.
const AUTH_RETRY_LIMIT = 2;

const QUIET_SYSTEM_SUBTYPES = new Set([
  'init',
  'status',
  'thinking_tokens',
  'hook_started',
  'hook_progress',
  'hook_response',
  'compact_boundary',
  'commands_changed',
  // 2.1.330: repeats the denial that the is_error tool_result right after it carries.
  'permission_denied',
]);

/**
 * Maps Claude Code's stream-json lines to canonical events, one line at a time. Text, reasoning and
 * tool calls come from the `assistant` lines (one per content block, sharing a message id); with
 * partial messages the text and reasoning come from the deltas instead, and the complete block that
 * follows only adds what the deltas did not carry. Tool results come from `user` lines and are paired
 * with their call by `tool_use_id`. The `result` line gives usage, the error and the finish reason.
 */
export class ClaudeStreamParser {
  private sessionId: string | undefined;
  private readonly toolNames = new Map<string, string>();
  private currentMessageId: string | undefined;
  private open: OpenBlock | undefined;
  private sawAssistant = false;
  private errorKind: string | undefined;
  private heldErrorTexts: string[] = [];
  private finished = false;
  private succeeded = false;

  /** True once a `result` line (or a forced stop) ended the query. */
  get done(): boolean {
    return this.finished;
  }

  line(raw: string): ParseStep {
    const step: ParseStep = { events: [], warnings: [] };
    if (raw.trim().length === 0) return step;
    const line = parseClaudeStreamLine(raw);
    if (!line) {
      step.warnings.push(`ignored an unparsable line from claude: ${raw.length > 200 ? `${raw.slice(0, 200)}…` : raw}`);
      return step;
    }
    this.noteSession(line, step);
    switch (line.type) {
      case 'system':
        this.system(line, step);
        break;
      case 'stream_event':
        this.streamEvent(line, step);
        break;
      case 'assistant':
        this.assistant(line, step);
        break;
      case 'user':
        this.user(line, step);
        break;
      case 'result':
        this.result(line, step);
        break;
      case 'rate_limit_event':
        break;
      default:
        step.warnings.push(`ignored a claude line of unknown type "${line.type}"`);
    }
    return step;
  }

  /** After stdout ended: how the process ended decides, when no `result` line did. */
  end(exit: ProcessExit, stderrTail: string): ParseStep {
    const step: ParseStep = { events: [], warnings: [] };
    if (this.finished) {
      if (this.succeeded && exit.killedBy === undefined && exit.exitCode !== 0) {
        step.warnings.push(`claude exited with ${exit.exitCode ?? exit.signal} after a successful result`);
      }
      return step;
    }
    this.finished = true;
    if (exit.killedBy === 'cancelled' || exit.killedBy === 'unloaded') {
      step.events.push({ type: 'finish', finishReason: 'cancelled' });
      return step;
    }
    if (exit.killedBy === 'timeout') {
      step.events.push({ type: 'error', code: ErrorCodes.timeout, message: 'claude did not finish in time' });
      step.events.push({ type: 'finish', finishReason: 'error' });
      return step;
    }
    if (exit.exitCode === 0) {
      step.warnings.push('claude exited without a result line');
      step.events.push({ type: 'finish', finishReason: 'other' });
      return step;
    }
    const how = exit.exitCode === null ? `was killed by ${exit.signal ?? 'a signal'}` : `exited with code ${exit.exitCode}`;
    step.events.push({
      type: 'error',
      code: ErrorCodes.cliFailed,
      message: stderrTail ? `claude ${how}: ${stderrTail}` : `claude ${how} without a result`,
    });
    step.events.push({ type: 'finish', finishReason: 'error' });
    return step;
  }

  private noteSession(line: ClaudeStreamLine, step: ParseStep): void {
    const sessionId = asString(line.session_id);
    if (sessionId && sessionId !== this.sessionId) {
      this.sessionId = sessionId;
      step.events.push({ type: 'session', sessionId });
    }
  }

  private system(line: ClaudeStreamLine, step: ParseStep): void {
    const subtype = asString(line.subtype);
    if (subtype === 'api_retry') {
      const attempt = asNumber(line.attempt);
      const status = asNumber(line.error_status);
      const kind = asString(line.error);
      step.warnings.push(
        `claude retried the API request (attempt ${attempt ?? '?'} of ${asNumber(line.max_retries) ?? '?'}` +
          `${status === undefined ? '' : `, HTTP ${status}`}${kind ? `, ${kind}` : ''})`,
      );
      if (kind === 'authentication_failed' && attempt !== undefined && attempt >= AUTH_RETRY_LIMIT) {
        step.events.push({
          type: 'error',
          code: ErrorCodes.cliAuthFailed,
          message: `Claude Code could not authenticate (HTTP ${status ?? '?'}, ${kind}); stopped after ${attempt} attempts instead of waiting for all its retries`,
        });
        step.events.push({ type: 'finish', finishReason: 'error' });
        this.finished = true;
        step.stop = true;
      }
      return;
    }
    if (subtype === undefined || !QUIET_SYSTEM_SUBTYPES.has(subtype)) {
      step.warnings.push(`ignored a claude system line of subtype "${subtype ?? '?'}"`);
    }
  }

  private streamEvent(line: ClaudeStreamLine, step: ParseStep): void {
    const event = line.event;
    if (!event) return;
    const index = asNumber(event.index);
    switch (event.type) {
      case 'message_start':
        this.currentMessageId = asString(event.message?.id);
        this.open = undefined;
        return;
      case 'content_block_start': {
        const kind = event.content_block?.type;
        this.open =
          (kind === 'text' || kind === 'thinking') && index !== undefined
            ? { messageId: this.currentMessageId, index, kind, streamed: '' }
            : undefined;
        return;
      }
      case 'content_block_delta': {
        const open = this.open;
        if (!open || open.index !== index) return;
        const delta = event.delta;
        const piece =
          open.kind === 'text' && delta?.type === 'text_delta'
            ? asString(delta.text)
            : open.kind === 'thinking' && delta?.type === 'thinking_delta'
              ? asString(delta.thinking)
              : undefined;
        if (!piece) return;
        open.streamed += piece;
        step.events.push({ type: open.kind === 'text' ? 'text' : 'reasoning', text: piece });
        return;
      }
      case 'content_block_stop':
        if (this.open?.index === index) this.open = undefined;
        return;
      default:
        // message_delta / message_stop carry per-message usage and stop reasons; the result line has the totals.
        return;
    }
  }

  private assistant(line: ClaudeStreamLine, step: ParseStep): void {
    const message = line.message;
    const messageId = asString(message?.id);
    const errorKind = asString(line.error);
    for (const block of asBlocks(message?.content)) {
      if (block.type === 'text' || block.type === 'thinking') {
        const kind = block.type;
        const text = asString(kind === 'text' ? block.text : block.thinking) ?? '';
        // The CLI's own error message (model "<synthetic>" with an `error` kind) is not model text:
        // it becomes the error event when the result line says the query failed.
        if (errorKind !== undefined && message?.model === '<synthetic>') {
          this.errorKind = errorKind;
          this.heldErrorTexts.push(text);
          continue;
        }
        this.sawAssistant = true;
        const rest = this.unstreamed(kind, messageId, text, step);
        if (rest) step.events.push({ type: kind === 'text' ? 'text' : 'reasoning', text: rest });
      } else if (block.type === 'tool_use') {
        this.sawAssistant = true;
        const toolCallId = asString(block.id) ?? '';
        const toolName = asString(block.name) ?? '';
        this.toolNames.set(toolCallId, toolName);
        step.events.push({ type: 'tool-call', toolCallId, toolName, input: block.input ?? {} });
      } else {
        step.warnings.push(`ignored an assistant content block of type "${String(block.type)}"`);
      }
    }
  }

  /** What of a complete block the deltas did not already deliver (all of it without partial messages). */
  private unstreamed(kind: 'text' | 'thinking', messageId: string | undefined, text: string, step: ParseStep): string {
    const open = this.open;
    if (!open || open.kind !== kind || open.messageId !== messageId) return text;
    this.open = undefined;
    if (text.startsWith(open.streamed)) return text.slice(open.streamed.length);
    step.warnings.push(`the complete ${kind} block differs from its streamed deltas; both were kept`);
    return text;
  }

  private user(line: ClaudeStreamLine, step: ParseStep): void {
    // A replayed prompt (--replay-user-messages) has string content and no tool results.
    for (const block of asBlocks(line.message?.content)) {
      if (block.type !== 'tool_result') continue;
      const toolCallId = asString(block.tool_use_id) ?? '';
      const toolName = this.toolNames.get(toolCallId);
      if (toolName === undefined) step.warnings.push(`a tool result for an unknown tool call "${toolCallId}"`);
      step.events.push({
        type: 'tool-result',
        toolCallId,
        toolName: toolName ?? 'unknown',
        output: block.content ?? '',
        ...(typeof block.is_error === 'boolean' ? { isError: block.is_error } : {}),
      });
    }
  }

  private result(line: ClaudeStreamLine, step: ParseStep): void {
    if (this.finished) {
      step.warnings.push('ignored a second result line');
      return;
    }
    this.finished = true;
    const outcome = classifyResult(line, this.errorKind);
    // The one-shot json format prints only this line: its `result` is then the answer's only copy.
    const answer = asString(line.result);
    if (!this.sawAssistant && !outcome.error && answer) step.events.push({ type: 'text', text: answer });
    if (outcome.usage) step.events.push({ type: 'usage', ...outcome.usage });
    if (outcome.error) step.events.push({ type: 'error', ...outcome.error });
    else for (const text of this.heldErrorTexts) step.warnings.push(`claude reported: ${text}`);
    this.succeeded = !outcome.error;
    step.events.push({ type: 'finish', finishReason: outcome.finishReason });
  }
}
