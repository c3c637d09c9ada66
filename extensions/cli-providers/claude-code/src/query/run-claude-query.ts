import { CliProcess, redactSecrets, type AdapterContext, type CliStreamEvent, type QueryRequest } from '@svc-org/ai-sdk';
import { claudeEnvPatch } from '../settings/claude-env-patch.js';
import { readSettings } from '../settings/read-settings.js';
import { buildQueryArgs } from './build-query-args.js';
import { ClaudeStreamParser, type ParseStep } from './claude-stream-parser.js';

export interface RunOptions {
  /** Stream text and reasoning as deltas (`--include-partial-messages`). */
  partial: boolean;
  /** Receives each warning, already redacted. */
  onWarning(message: string): void;
}

/**
 * Runs one headless query through the host and yields canonical events. The host owns the process:
 * it kills it on cancel or timeout, and this generator then reports how it ended. Leaving the loop
 * early (a consumer that stops reading) kills the child too (CliProcess).
 */
export async function* runClaudeQuery(request: QueryRequest, ctx: AdapterContext, options: RunOptions): AsyncGenerator<CliStreamEvent> {
  const settings = await readSettings(ctx);
  const args = buildQueryArgs(request, settings, { partial: options.partial });
  const redact = (text: string) => redactSecrets(text, [settings.apiKey]);
  ctx.host.log.debug('claude query', {
    cwd: request.cwd,
    resume: request.resume !== undefined,
    continue: request.continue === true,
    model: request.model ?? settings.model ?? null,
  });
  const run = await CliProcess.start(ctx, {
    command: ctx.cli.command,
    args,
    cwd: request.cwd,
    envPatch: claudeEnvPatch(settings),
    stdin: request.prompt,
  });
  const parser = new ClaudeStreamParser();
  // A plain function, not a generator: it runs for every line, and most lines need no redaction.
  const emit = (step: ParseStep): CliStreamEvent[] => {
    for (const warning of step.warnings) options.onWarning(redact(warning));
    if (!step.events.some((event) => event.type === 'error')) return step.events;
    return step.events.map((event) => (event.type === 'error' ? { ...event, message: redact(event.message) } : event));
  };
  read: for await (const batch of run.lineBatches()) {
    for (const line of batch) {
      const step = parser.line(line);
      // A plain loop: `yield*` over a sync iterable costs an extra promise per event.
      for (const event of emit(step)) yield event;
      if (step.stop) {
        await run.stop();
        break read;
      }
    }
  }
  const end = await run.wait();
  // CliProcess counts a cancel that raced the exit as a cancel; the parser reads it from killedBy.
  const killedBy = end.endedBy === 'cancelled' || end.endedBy === 'timeout' || end.endedBy === 'unloaded' ? end.endedBy : end.killedBy;
  for (const event of emit(parser.end({ ...end, ...(killedBy ? { killedBy } : {}) }, end.stderr.tail()))) yield event;
}
