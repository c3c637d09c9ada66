import { CliProcess, describeCliExit, ErrorCodes, redactSecrets, type AdapterContext, type CliStreamEvent, type CliStreamItem, type QueryRequest } from '@svc-org/ai-sdk';
import { codexEnvPatch } from '../settings/codex-env-patch.js';
import { readCodexSettings } from '../settings/codex-settings.js';
import { buildExecArgs } from './build-exec-args.js';
import { CodexStreamParser, type CodexParserOutput } from './codex-stream-parser.js';
import { ThreadUsageLedger } from './thread-usage-ledger.js';

// Codex prints this on every run whose stdin is not a terminal; it never explains a failure.
const STDIN_NOTICE = /^Reading additional input from stdin\.\.\.$/;
// Codex logs refusals it does not put in the JSON stream on stderr, e.g.
// `2026-…Z ERROR codex_core::tools::router: error=Command blocked by PreToolUse hook: …`.
const LOGGED_ERROR = /^\S+ ERROR /;
const MAX_ERROR_LINES = 20;

/**
 * Runs one `codex exec --json` and yields canonical events, ending with exactly one
 * `finish`. Failures become `error` events, never throws: turn.failed → cli_auth_failed or
 * cli_api_error; a bad exit → cli_failed with the stderr tail; a cancelled call → finish
 * `cancelled`. Codex may never exit on its own when offline, so cancellation (the call's signal,
 * which the host turns into a kill) is the way out; leaving the loop early kills the child too.
 * What has no canonical event (a warning) goes to `onWarning`, as it happens: the caller's stream
 * is this generator itself, with no second loop to filter the warnings out of it. The events of
 * one chunk of output are yielded as one batch.
 */
export async function* runCodexExec(request: QueryRequest, ctx: AdapterContext, onWarning: (message: string) => void): AsyncGenerator<CliStreamItem> {
  const settings = await readCodexSettings(ctx.host);
  const scrub = (text: string) => redactSecrets(text, [settings.apiKey]);
  if (request.maxTurns !== undefined) {
    onWarning('codex has no max-turns option; maxTurns was ignored');
  }
  const run = await CliProcess.start(
    ctx,
    {
      command: ctx.cli.command,
      args: buildExecArgs(request, settings),
      cwd: request.cwd,
      envPatch: codexEnvPatch(settings),
      // Closed stdin: with an open pipe codex waits for EOF to append it to the prompt.
      stdin: '',
    },
    { stderr: { ignore: [STDIN_NOTICE] } },
  );
  const parser = new CodexStreamParser();
  const ledger = new ThreadUsageLedger(ctx.host.storage);
  const freshThread = !request.resume && !request.continue;
  for await (const lines of run.lineBatches()) {
    const events: CliStreamEvent[] = [];
    // The lines are mapped by one plain call (not a loop in this generator) until a turn's usage,
    // which only the ledger, asynchronously, turns into an event.
    for (let from = 0; from < lines.length; ) {
      const stop = mapLines(parser, lines, from, events, scrub, onWarning);
      from = stop.next;
      if (stop.usage) {
        const { usage, warning } = await ledger.delta(stop.usage.threadId, stop.usage, freshThread);
        if (warning) onWarning(warning);
        events.push({ type: 'usage', ...usage });
      }
    }
    if (events.length > 0) yield events;
  }
  const exit = await run.wait();

  const pending = parser.takePendingErrors().map(scrub);
  if (exit.endedBy === 'cancelled' || exit.endedBy === 'unloaded') {
    for (const message of pending) onWarning(message);
    yield { type: 'finish', finishReason: 'cancelled' };
    return;
  }
  if (exit.endedBy === 'timeout') {
    for (const message of pending) onWarning(message);
    yield { type: 'error', code: ErrorCodes.timeout, message: 'codex did not finish in time and was ended by the host' };
    yield { type: 'finish', finishReason: 'error' };
    return;
  }
  if (parser.failure) {
    for (const message of pending) onWarning(message);
    yield { type: 'finish', finishReason: 'error' };
    return;
  }
  if (exit.exitCode !== 0) {
    const detail = [...pending, exit.stderr.tail()].filter((part) => part !== '').join('\n');
    yield { type: 'error', code: ErrorCodes.cliFailed, message: scrub(describeCliExit('codex', exit, detail)) };
    yield { type: 'finish', finishReason: 'error' };
    return;
  }
  for (const message of pending) onWarning(message);
  const errorLines = exit.stderr.lines().filter((line) => LOGGED_ERROR.test(line)).slice(0, MAX_ERROR_LINES);
  for (const line of errorLines) onWarning(scrub(`codex stderr: ${line}`));
  yield { type: 'finish', finishReason: parser.turnCompleted ? 'stop' : 'other' };
}

type ThreadUsage = Extract<CodexParserOutput, { type: 'thread-usage' }>;

/**
 * Maps `lines` from `from` on into `events` (warnings to `onWarning`, redacted) and stops after a
 * line that ends a turn: its usage (that line's only output) is returned for the ledger, with the
 * index to go on from.
 */
function mapLines(
  parser: CodexStreamParser,
  lines: readonly string[],
  from: number,
  events: CliStreamEvent[],
  scrub: (text: string) => string,
  onWarning: (message: string) => void,
): { next: number; usage?: ThreadUsage } {
  for (let index = from; index < lines.length; index++) {
    for (const output of parser.push(lines[index]!)) {
      if (output.type === 'thread-usage') return { next: index + 1, usage: output };
      if (output.type === 'warning') onWarning(scrub(output.message));
      else if (output.type === 'error') events.push({ ...output, message: scrub(output.message) });
      else events.push(output);
    }
  }
  return { next: lines.length };
}
