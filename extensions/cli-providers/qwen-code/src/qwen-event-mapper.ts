import { ErrorCodes, type CliStreamEvent, type FinishReason, type ProcessExit } from '@svc-org/ai-sdk';
import { classifyApiError, isApiErrorText } from './classify-api-error.js';
import type { QwenMessage } from './qwen-message.js';

/** How the CLI process ended, as the adapter saw it. */
export interface QwenRunOutcome {
  exit: ProcessExit;
  /** The call's signal aborted (or the host ended the process for that reason). */
  cancelled: boolean;
  /** Summary of the end of stderr. */
  stderr: string;
}

/** Exit status of Qwen Code when --max-session-turns is reached; it then prints no result line. */
export const MAX_TURNS_EXIT_CODE = 53;

/**
 * Maps Qwen Code messages to canonical events, in order, for one run. Decisions (README):
 * - `session` once, from the first message that names a session (the init line);
 * - `usage` once per model call, from the assistant message that carries it (Qwen Code splits one
 *   reply into several assistant lines and gives the usage to one of them; the others say 0/0). The
 *   result line's usage is not used: it also counts the CLI's background memory calls and, on
 *   --resume/--continue, every earlier run of the session, so summing it would count tokens twice;
 * - an "[API Error: …]" text is an `error` event (cli_auth_failed or cli_api_error), never `text`;
 *   when the result line repeats it, it is reported once;
 * - `finish` comes last, from `end()`.
 */
export class QwenEventMapper {
  private sessionId: string | undefined;
  private readonly toolNames = new Map<string, string>();
  private readonly reportedErrors = new Set<string>();
  private resultSeen = false;
  private resultFinish: FinishReason = 'stop';

  constructor(private readonly onWarning: (warning: string) => void) {}

  map(message: QwenMessage): CliStreamEvent[] {
    return this.mapInto(message, []);
  }

  /** `map`, its events appended to `events` (a batch being built); returns `events`. */
  mapInto(message: QwenMessage, events: CliStreamEvent[]): CliStreamEvent[] {
    if (this.sessionId === undefined && message.sessionId) {
      this.sessionId = message.sessionId;
      events.push({ type: 'session', sessionId: message.sessionId });
    }
    switch (message.type) {
      case 'assistant':
        for (const block of message.content) {
          if (block.type === 'text') {
            if (isApiErrorText(block.text)) events.push(...this.reportError(block.text));
            else if (block.text.length > 0) events.push({ type: 'text', text: block.text });
          } else if (block.type === 'thinking') {
            if (block.thinking.length > 0) events.push({ type: 'reasoning', text: block.thinking });
          } else if (block.type === 'tool_use') {
            this.toolNames.set(block.id, block.name);
            events.push({ type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.input });
          }
        }
        if (message.usage && (message.usage.inputTokens > 0 || message.usage.outputTokens > 0)) {
          events.push({ type: 'usage', ...message.usage });
        }
        break;
      case 'user':
        for (const block of message.content) {
          if (block.type !== 'tool_result') continue;
          const toolName = this.toolNames.get(block.toolUseId);
          if (toolName === undefined) this.onWarning(`qwen returned a result for an unknown tool call ${block.toolUseId}`);
          events.push({
            type: 'tool-result',
            toolCallId: block.toolUseId,
            toolName: toolName ?? 'unknown',
            output: block.content,
            ...(block.isError === undefined ? {} : { isError: block.isError }),
          });
        }
        break;
      case 'result':
        this.resultSeen = true;
        if (message.subtype?.includes('max_turns')) this.resultFinish = 'max-turns';
        if (message.isError) {
          const text = message.errorMessage ?? message.result ?? `qwen reported ${message.subtype ?? 'an error'}`;
          events.push(...(isApiErrorText(text) ? this.reportError(text) : this.reportFailure(text)));
        } else if (message.result !== undefined && isApiErrorText(message.result)) {
          // 0.21.x: the API error is a "successful" result; the assistant line normally reported it already.
          events.push(...this.reportError(message.result));
        }
        break;
      default:
        // system/init carries only the session; stream_event lines repeat what the assistant line
        // will say in full (--include-partial-messages) or report goal state.
        break;
    }
    return events;
  }

  /** The closing events once the process has exited: maybe an error, then exactly one finish. */
  end(outcome: QwenRunOutcome): CliStreamEvent[] {
    if (outcome.cancelled) return [{ type: 'finish', finishReason: 'cancelled' }];
    if (outcome.exit.killedBy === 'timeout') {
      return [
        { type: 'error', code: ErrorCodes.timeout, message: 'qwen was stopped: the call timed out' },
        { type: 'finish', finishReason: 'error' },
      ];
    }
    if (this.resultSeen) {
      return [{ type: 'finish', finishReason: this.reportedErrors.size > 0 ? 'error' : this.resultFinish }];
    }
    if (outcome.exit.exitCode === MAX_TURNS_EXIT_CODE) return [{ type: 'finish', finishReason: 'max-turns' }];
    if (this.reportedErrors.size > 0) return [{ type: 'finish', finishReason: 'error' }];
    const { exitCode, signal } = outcome.exit;
    const how = exitCode === null ? `was ended by ${signal ?? 'a signal'}` : `exited with code ${exitCode}`;
    const error: CliStreamEvent =
      exitCode === 0
        ? { type: 'error', code: ErrorCodes.cliOutputInvalid, message: 'qwen exited without printing a result' }
        : { type: 'error', code: ErrorCodes.cliFailed, message: `qwen ${how}${outcome.stderr ? `: ${outcome.stderr}` : ''}` };
    return [error, { type: 'finish', finishReason: 'error' }];
  }

  private reportError(text: string): CliStreamEvent[] {
    const error = classifyApiError(text);
    return this.once(error.code, error.message);
  }

  private reportFailure(text: string): CliStreamEvent[] {
    return this.once(ErrorCodes.cliFailed, text.trim());
  }

  private once(code: string, message: string): CliStreamEvent[] {
    if (this.reportedErrors.has(message)) return [];
    this.reportedErrors.add(message);
    return [{ type: 'error', code, message }];
  }
}
