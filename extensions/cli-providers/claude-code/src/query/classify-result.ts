import { ErrorCodes, type CliUsage, type FinishReason } from '@svc-org/ai-sdk';
import { asNumber, asString, type ClaudeStreamLine } from './claude-stream-line.js';

export interface ResultOutcome {
  usage?: CliUsage;
  error?: { code: string; message: string };
  finishReason: FinishReason;
}

// The error kinds the CLI puts on its synthetic assistant line (`"error":"…"`, seen in the 2.1.197 binary).
const AUTH_KINDS = new Set(['authentication_failed', 'oauth_org_not_allowed']);
const AUTH_TEXT = /not logged in|invalid api key|please run \/login|oauth token (?:has )?expired/i;

/**
 * The `result` line decides how the query ended. The trap: `subtype: "success"` does not mean
 * success — an auth failure or an API error is `subtype: "success", is_error: true` — so `is_error`
 * decides, and the subtype only names max turns. `errorKind` is the `error` field of the synthetic
 * assistant line the CLI prints just before such a result.
 */
export function classifyResult(line: ClaudeStreamLine, errorKind: string | undefined): ResultOutcome {
  const outcome: ResultOutcome = { finishReason: 'other' };
  const usage = usageOf(line);
  if (usage) outcome.usage = usage;
  const subtype = asString(line.subtype);
  const errors = Array.isArray(line.errors) ? line.errors.filter((e): e is string => typeof e === 'string') : [];
  if (subtype === 'error_max_turns') {
    outcome.error = { code: ErrorCodes.maxTurns, message: errors.join('; ') || 'Claude Code reached the maximum number of turns' };
    outcome.finishReason = 'max-turns';
    return outcome;
  }
  if (line.is_error !== true) {
    outcome.finishReason = finishReasonOf(asString(line.stop_reason));
    return outcome;
  }
  const message = asString(line.result) || errors.join('; ') || `Claude Code reported ${subtype ?? 'an error'}`;
  const status = asNumber(line.api_error_status);
  let code: string = ErrorCodes.cliFailed;
  if (status === 401 || status === 403 || (errorKind !== undefined && AUTH_KINDS.has(errorKind)) || AUTH_TEXT.test(message)) {
    code = ErrorCodes.cliAuthFailed;
  } else if (status !== undefined || errorKind !== undefined) {
    code = ErrorCodes.cliApiError;
  }
  outcome.error = { code, message };
  outcome.finishReason = 'error';
  return outcome;
}

function finishReasonOf(stopReason: string | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case undefined:
      return 'stop';
    case 'max_tokens':
      return 'length';
    default:
      return 'other';
  }
}

/**
 * The result's `usage` covers the whole query (every turn), unlike the per-line `usage` on assistant
 * lines, which is a message_start snapshot. Input counts the cached prompt too (creation and reads),
 * so the number is the prompt the model really processed; the cost is the CLI's own total.
 */
function usageOf(line: ClaudeStreamLine): CliUsage | undefined {
  const usage = line.usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const input = asNumber(usage.input_tokens);
  const output = asNumber(usage.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const inputTokens = (input ?? 0) + (asNumber(usage.cache_creation_input_tokens) ?? 0) + (asNumber(usage.cache_read_input_tokens) ?? 0);
  const outputTokens = output ?? 0;
  const costUsd = asNumber(line.total_cost_usd);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, ...(costUsd === undefined ? {} : { costUsd }) };
}
