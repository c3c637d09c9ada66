import { ErrorCodes, readLines, type AdapterContext, type CliStreamEvent, type ProcessExit, type QueryRequest } from '@svc-org/ai-sdk';
import { codexEnvPatch } from '../settings/codex-env-patch.js';
import { readCodexSettings } from '../settings/codex-settings.js';
import { redactSecrets } from '../settings/redact-secrets.js';
import { buildExecArgs } from './build-exec-args.js';
import { CodexStreamParser } from './codex-stream-parser.js';
import { StderrTail } from './stderr-tail.js';
import { ThreadUsageLedger } from './thread-usage-ledger.js';

export type CodexExecOutput = CliStreamEvent | { type: 'warning'; message: string };

/**
 * Runs one `codex exec --json` and yields canonical events and warnings, ending with exactly one
 * `finish`. Failures become `error` events, never throws: turn.failed → cli_auth_failed or
 * cli_api_error; a bad exit → cli_failed with the stderr tail; a cancelled call → finish
 * `cancelled`. Codex may never exit on its own when offline, so cancellation (the call's signal,
 * which the host turns into a kill) is the way out; leaving the loop early kills the child too.
 */
export async function* runCodexExec(request: QueryRequest, ctx: AdapterContext): AsyncGenerator<CodexExecOutput> {
  const settings = await readCodexSettings(ctx.host);
  const scrub = (text: string) => redactSecrets(text, settings);
  if (request.maxTurns !== undefined) {
    yield { type: 'warning', message: 'codex has no max-turns option; maxTurns was ignored' };
  }
  const child = await ctx.host.process.spawn(
    {
      command: ctx.cli.command,
      args: buildExecArgs(request, settings),
      cwd: request.cwd,
      envPatch: codexEnvPatch(settings),
      // Closed stdin: with an open pipe codex waits for EOF to append it to the prompt.
      stdin: '',
    },
    { signal: ctx.signal },
  );
  let exit: ProcessExit | undefined;
  const stderr = new StderrTail();
  const stderrDone = (async () => {
    for await (const chunk of child.stderr) stderr.push(chunk);
  })();
  const parser = new CodexStreamParser();
  const ledger = new ThreadUsageLedger(ctx.host.storage);
  const freshThread = !request.resume && !request.continue;
  try {
    for await (const line of readLines(child.stdout)) {
      for (const output of parser.push(line)) {
        if (output.type === 'thread-usage') {
          const { usage, warning } = await ledger.delta(output.threadId, output, freshThread);
          if (warning) yield { type: 'warning', message: warning };
          yield { type: 'usage', ...usage };
        } else if (output.type === 'warning' || output.type === 'error') {
          yield { ...output, message: scrub(output.message) };
        } else {
          yield output;
        }
      }
    }
    exit = await child.exited;
    await stderrDone;
  } finally {
    if (!exit) await child.kill('SIGTERM').catch(() => undefined);
  }

  const pending = parser.takePendingErrors().map(scrub);
  if (exit.killedBy === 'cancelled' || ctx.signal.aborted) {
    for (const message of pending) yield { type: 'warning', message };
    yield { type: 'finish', finishReason: 'cancelled' };
    return;
  }
  if (exit.killedBy === 'timeout') {
    for (const message of pending) yield { type: 'warning', message };
    yield { type: 'error', code: ErrorCodes.timeout, message: 'codex did not finish in time and was ended by the host' };
    yield { type: 'finish', finishReason: 'error' };
    return;
  }
  if (parser.failure) {
    for (const message of pending) yield { type: 'warning', message };
    yield { type: 'finish', finishReason: 'error' };
    return;
  }
  if (exit.exitCode !== 0) {
    const how = exit.exitCode === null ? `was ended by ${exit.signal ?? 'a signal'}` : `exited with code ${exit.exitCode}`;
    const detail = [...pending, stderr.toString()].filter((part) => part !== '').join('\n');
    yield { type: 'error', code: ErrorCodes.cliFailed, message: scrub(detail ? `codex ${how}: ${detail}` : `codex ${how}`) };
    yield { type: 'finish', finishReason: 'error' };
    return;
  }
  for (const message of pending) yield { type: 'warning', message };
  for (const line of stderr.errorLines()) yield { type: 'warning', message: scrub(`codex stderr: ${line}`) };
  yield { type: 'finish', finishReason: parser.turnCompleted ? 'stop' : 'other' };
}
