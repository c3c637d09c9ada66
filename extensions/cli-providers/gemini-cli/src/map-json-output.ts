import { ErrorCodes, redactSecrets, type CliQueryResult, type CliUsage, type ProcessExit } from '@svc-org/ai-sdk';
import { classifyGeminiError } from './classify-gemini-error.js';
import { extractJsonDocument } from './extract-json-document.js';
import { summarizeStderr } from './summarize-stderr.js';
import { stripAnsi } from './strip-ansi.js';

// Fixed warning texts of 0.61.0 (nonInteractiveCli.ts) that say why the run stopped.
const MAX_SESSION_TURNS = 'Maximum session turns exceeded';
const LOOP_DETECTED = 'Loop detected, stopping execution';

export interface JsonRun {
  stdout: string;
  stderr: string;
  exit: ProcessExit;
  aborted: boolean;
}

/**
 * Maps one `gemini -o json` run to the canonical result. The document is pretty-printed over many
 * lines on stdout; a fatal error leaves stdout empty and prints `{session_id, error:{type,message,code}}`
 * on stderr instead. The format carries no tool calls (only counts in stats.tools) and only the last
 * turn's text in `response`; both limits are the CLI's, and the result says so in a warning.
 */
export function mapJsonOutput(run: JsonRun, secrets: readonly string[] = []): CliQueryResult {
  const result: CliQueryResult = { text: '', toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [] };
  const warn = (message: string) => result.warnings.push(redactSecrets(message, secrets));
  const fail = (code: string, message: string, finishReason: CliQueryResult['finishReason'] = 'error') => {
    result.error = { code, message: redactSecrets(stripAnsi(message), secrets) };
    result.finishReason = finishReason;
  };

  const document = run.stdout.trim() === '' ? undefined : extractJsonDocument(run.stdout);
  if (document) {
    const output = document.value;
    for (const extra of [document.before, document.after]) {
      if (extra.trim() !== '') warn(`ignored stdout text outside the JSON document: ${extra.trim().slice(0, 200)}`);
    }
    if (typeof output.session_id === 'string') result.sessionId = output.session_id;
    if (typeof output.response === 'string') result.text = output.response;
    const usage = usageOf(output.stats);
    if (usage) result.usage = usage;
    const tools = toolCountsOf(output.stats);
    if (tools) warn(`gemini -o json reports tool calls only as counts (${tools}); stream() carries each call and its result`);
    const warnings = Array.isArray(output.warnings) ? output.warnings.filter((w): w is string => typeof w === 'string') : [];
    for (const warning of warnings) warn(warning);
    if (warnings.includes(MAX_SESSION_TURNS)) result.finishReason = 'max-turns';
    else if (warnings.includes(LOOP_DETECTED)) result.finishReason = 'other';
    const error = output.error as { type?: string; message?: string } | undefined;
    if (error && typeof error === 'object') {
      // 0.61.0 puts only an invalid model stream here (type INVALID_STREAM): an API-side failure.
      const classified = classifyGeminiError({ errorType: error.type, message: error.message });
      const code = classified.code === ErrorCodes.cliFailed ? ErrorCodes.cliApiError : classified.code;
      fail(code, error.message ?? `gemini reported ${error.type ?? 'an error'}`, classified.finishReason);
    }
    return result;
  }
  if (run.stdout.trim() !== '') {
    if (run.aborted || run.exit.killedBy === 'cancelled') return { ...result, finishReason: 'cancelled' };
    fail(ErrorCodes.cliOutputInvalid, `gemini -o json printed no JSON document: ${run.stdout.trim().slice(0, 200)}`);
    return result;
  }
  if (run.aborted || run.exit.killedBy === 'cancelled') return { ...result, finishReason: 'cancelled' };
  if (run.exit.killedBy === 'timeout') {
    fail(ErrorCodes.timeout, 'gemini did not finish in time and was stopped');
    return result;
  }
  const tail = summarizeStderr(run.stderr, secrets);
  const failure = extractJsonDocument(stripAnsi(run.stderr))?.value;
  if (failure && typeof failure.session_id === 'string') result.sessionId = failure.session_id;
  const error = failure?.error as { type?: string; message?: string; code?: number } | undefined;
  if (run.exit.exitCode === 0 && !error) {
    fail(ErrorCodes.cliOutputInvalid, `gemini exited without output${tail ? `: ${tail}` : ''}`);
    return result;
  }
  if (run.exit.exitCode === null && !error) {
    fail(ErrorCodes.cliFailed, `gemini was ended by ${run.exit.signal ?? 'a signal'}${tail ? `: ${tail}` : ''}`);
    return result;
  }
  const { code, finishReason } = classifyGeminiError({
    exitCode: run.exit.exitCode,
    errorType: error?.type,
    errorCode: typeof error?.code === 'number' ? error.code : undefined,
    message: error?.message,
  });
  if (finishReason === 'cancelled') return { ...result, finishReason };
  fail(code, error?.message ?? (tail || `gemini exited with code ${run.exit.exitCode}`), finishReason);
  return result;
}

/** Sums stats.models[*].tokens: prompt (input incl. cached), candidates (output), total (incl. thoughts). */
function usageOf(stats: unknown): CliUsage | undefined {
  const models = (stats as { models?: unknown } | undefined)?.models;
  if (typeof models !== 'object' || models === null) return undefined;
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const model of Object.values(models as Record<string, { tokens?: Record<string, unknown> }>)) {
    const tokens = model?.tokens;
    if (!tokens) continue;
    if (typeof tokens.prompt === 'number') usage.inputTokens += tokens.prompt;
    if (typeof tokens.candidates === 'number') usage.outputTokens += tokens.candidates;
    if (typeof tokens.total === 'number') usage.totalTokens += tokens.total;
  }
  return usage;
}

function toolCountsOf(stats: unknown): string | undefined {
  const tools = (stats as { tools?: { totalCalls?: unknown; byName?: unknown } } | undefined)?.tools;
  if (typeof tools?.totalCalls !== 'number' || tools.totalCalls === 0) return undefined;
  const byName = typeof tools.byName === 'object' && tools.byName !== null ? (tools.byName as Record<string, { count?: unknown }>) : {};
  const parts = Object.entries(byName).map(([name, entry]) => `${name} ×${typeof entry?.count === 'number' ? entry.count : '?'}`);
  return parts.length > 0 ? parts.join(', ') : `${tools.totalCalls} call(s)`;
}
