import { ErrorCodes, redactSecrets, type CliStreamEvent, type FinishReason, type ProcessExit } from '@svc-org/ai-sdk';
import { classifyGeminiError } from './classify-gemini-error.js';
import { extractJsonDocument } from './extract-json-document.js';
import { summarizeStderr } from './summarize-stderr.js';
import { stripAnsi } from './strip-ansi.js';

// The non-fatal `error` lines 0.61.0 writes with fixed texts (nonInteractiveCli.ts).
const MAX_SESSION_TURNS = 'Maximum session turns exceeded';
const LOOP_DETECTED = 'Loop detected, stopping execution';

export interface StreamEnd {
  exit: ProcessExit;
  stderr: string;
  /** The caller's signal fired (the host then kills the process tree). */
  aborted: boolean;
}

interface ResultLine {
  status: string;
  error?: { type?: string; message?: string };
}

/**
 * Maps `gemini -o stream-json` lines to canonical events, one line at a time, then closes the stream
 * from the result line and the process exit. Every line becomes an event or a warning: the prompt
 * echo (`message` with role "user") is the only line that maps to nothing, because it is input.
 */
export class StreamJsonMapper {
  /** What a stream has no event for: unparsable or unknown lines, CLI warnings. */
  readonly warnings: string[] = [];
  private readonly toolNames = new Map<string, string>();
  private result?: ResultLine;
  private finishOverride?: FinishReason;
  private errorEmitted = false;

  constructor(private readonly secrets: readonly string[] = []) {}

  push(raw: string): CliStreamEvent[] {
    const events: CliStreamEvent[] = [];
    this.map(raw, events);
    return events;
  }

  /** The events of a chunk's lines, appended to `events` in order: one call per chunk, no array per line. */
  pushLines(lines: readonly string[], events: CliStreamEvent[]): CliStreamEvent[] {
    for (const line of lines) this.map(line, events);
    return events;
  }

  private map(raw: string, events: CliStreamEvent[]): void {
    const line = raw.trim();
    if (line === '') return;
    let event: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || typeof (parsed as { type?: unknown }).type !== 'string') {
        throw new Error('not an event');
      }
      event = parsed as Record<string, unknown>;
    } catch {
      this.warn(`ignored a stdout line that is not a stream-json event: ${line.slice(0, 200)}`);
      return;
    }
    switch (event.type) {
      case 'init':
        if (typeof event.session_id === 'string') events.push({ type: 'session', sessionId: event.session_id });
        return;
      case 'message':
        if (event.role === 'assistant' && typeof event.content === 'string' && event.content !== '') {
          events.push({ type: 'text', text: event.content });
        }
        return;
      case 'tool_use':
        return this.toolUse(event, events);
      case 'tool_result':
        return this.toolResult(event, events);
      case 'error':
        return this.errorLine(event, events);
      case 'result':
        return this.resultLine(event, events);
      default:
        this.warn(`ignored a stream-json event of unknown type "${String(event.type)}"`);
    }
  }

  end({ exit, stderr, aborted }: StreamEnd): CliStreamEvent[] {
    const events: CliStreamEvent[] = [];
    const fail = (code: string, message: string, finishReason: FinishReason = 'error') => {
      events.push({ type: 'error', code, message: redactSecrets(message, this.secrets) });
      events.push({ type: 'finish', finishReason });
    };
    if (this.result) {
      if (this.result.status !== 'error') {
        events.push({ type: 'finish', finishReason: this.finishOverride ?? 'stop' });
        return events;
      }
      const error = this.result.error;
      if (!error) {
        // 0.61.0 says why in an `error` line before (an invalid stream); add nothing it did not say.
        if (!this.errorEmitted) fail(ErrorCodes.cliApiError, 'gemini reported an error result without details');
        else events.push({ type: 'finish', finishReason: 'error' });
        return events;
      }
      const { code, finishReason } = classifyGeminiError({ exitCode: exit.exitCode, errorType: error.type, message: error.message });
      if (finishReason === 'cancelled') events.push({ type: 'finish', finishReason });
      else fail(code, stripAnsi(error.message ?? `gemini failed (${error.type ?? 'no type'})`), finishReason);
      return events;
    }
    // No result line: cancelled, killed, or a fatal error that 0.61.0 reports on stderr only.
    if (aborted || exit.killedBy === 'cancelled') {
      events.push({ type: 'finish', finishReason: 'cancelled' });
      return events;
    }
    if (exit.killedBy === 'timeout') {
      fail(ErrorCodes.timeout, 'gemini did not finish in time and was stopped');
      return events;
    }
    const tail = summarizeStderr(stderr, this.secrets);
    if (exit.exitCode === 0) {
      fail(ErrorCodes.cliOutputInvalid, `gemini exited without a result line${tail ? `: ${tail}` : ''}`);
      return events;
    }
    if (exit.exitCode === null) {
      fail(ErrorCodes.cliFailed, `gemini was ended by ${exit.signal ?? 'a signal'}${tail ? `: ${tail}` : ''}`);
      return events;
    }
    const document = extractJsonDocument(stripAnsi(stderr))?.value.error as { type?: string; message?: string; code?: number } | undefined;
    const { code, finishReason } = classifyGeminiError({
      exitCode: exit.exitCode,
      errorType: document?.type,
      errorCode: typeof document?.code === 'number' ? document.code : undefined,
      message: document?.message,
    });
    if (finishReason === 'cancelled') events.push({ type: 'finish', finishReason });
    else fail(code, document?.message ?? (tail || `gemini exited with code ${exit.exitCode}`), finishReason);
    return events;
  }

  private toolUse(event: Record<string, unknown>, events: CliStreamEvent[]): void {
    if (typeof event.tool_id !== 'string' || typeof event.tool_name !== 'string') {
      this.warn('ignored a tool_use event without tool_id or tool_name');
      return;
    }
    this.toolNames.set(event.tool_id, event.tool_name);
    events.push({ type: 'tool-call', toolCallId: event.tool_id, toolName: event.tool_name, input: event.parameters ?? {} });
  }

  private toolResult(event: Record<string, unknown>, events: CliStreamEvent[]): void {
    if (typeof event.tool_id !== 'string') {
      this.warn('ignored a tool_result event without tool_id');
      return;
    }
    const toolName = this.toolNames.get(event.tool_id);
    if (toolName === undefined) this.warn(`tool_result ${event.tool_id} has no tool_use before it`);
    const isError = event.status === 'error';
    const error = event.error as { message?: unknown } | undefined;
    // `output` is the tool's display string ("" for a successful read_file, absent for a diff);
    // for an error the CLI sends the same text in error.message.
    const output = typeof event.output === 'string' ? event.output : isError && typeof error?.message === 'string' ? error.message : null;
    events.push({ type: 'tool-result', toolCallId: event.tool_id, toolName: toolName ?? '', output, isError });
  }

  private errorLine(event: Record<string, unknown>, events: CliStreamEvent[]): void {
    const message = typeof event.message === 'string' ? event.message : 'gemini reported an error';
    if (event.severity === 'warning') {
      if (message === LOOP_DETECTED) this.finishOverride = 'other';
      this.warn(message);
      return;
    }
    this.errorEmitted = true;
    if (message === MAX_SESSION_TURNS) {
      this.finishOverride = 'max-turns';
      events.push({ type: 'error', code: ErrorCodes.maxTurns, message });
      return;
    }
    events.push({ type: 'error', code: ErrorCodes.cliApiError, message: redactSecrets(message, this.secrets) });
  }

  private resultLine(event: Record<string, unknown>, events: CliStreamEvent[]): void {
    this.result = {
      status: typeof event.status === 'string' ? event.status : 'success',
      error: typeof event.error === 'object' && event.error !== null ? (event.error as ResultLine['error']) : undefined,
    };
    const stats = event.stats as Record<string, unknown> | undefined;
    if (!stats) return;
    if (typeof stats.input_tokens !== 'number' || typeof stats.output_tokens !== 'number') {
      this.warn('the result line has stats without input_tokens/output_tokens');
      return;
    }
    events.push({
      type: 'usage',
      inputTokens: stats.input_tokens,
      outputTokens: stats.output_tokens,
      ...(typeof stats.total_tokens === 'number' ? { totalTokens: stats.total_tokens } : {}),
    });
  }

  private warn(message: string): void {
    this.warnings.push(redactSecrets(message, this.secrets));
  }
}
