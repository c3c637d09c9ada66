import { CliProcess, redactSecrets, type AdapterContext, type CliStreamEvent, type CliStreamItem, type QueryRequest } from '@svc-org/ai-sdk';
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
 * early (a consumer that stops reading) kills the child too (CliProcess). The events of one chunk
 * of output are yielded as one batch.
 */
export async function* runClaudeQuery(request: QueryRequest, ctx: AdapterContext, options: RunOptions): AsyncGenerator<CliStreamItem> {
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
  const emit = (step: ParseStep, into: CliStreamEvent[]): CliStreamEvent[] => {
    for (const warning of step.warnings) options.onWarning(redact(warning));
    for (const event of step.events) into.push(event.type === 'error' ? { ...event, message: redact(event.message) } : event);
    return into;
  };
  for await (const batch of run.lineBatches()) {
    const events: CliStreamEvent[] = [];
    // One plain call per chunk, not a loop in this generator.
    const stop = mapLines(parser, batch, events, emit);
    if (events.length > 0) yield events;
    if (stop) {
      await run.stop();
      break;
    }
  }
  const end = await run.wait();
  // CliProcess counts a cancel that raced the exit as a cancel; the parser reads it from killedBy.
  const killedBy = end.endedBy === 'cancelled' || end.endedBy === 'timeout' || end.endedBy === 'unloaded' ? end.endedBy : end.killedBy;
  const closing = emit(parser.end({ ...end, ...(killedBy ? { killedBy } : {}) }, end.stderr.tail()), []);
  if (closing.length > 0) yield closing;
}

/** Maps a chunk's lines into `events`; true when a line said the run must end now (the lines after it are dropped). */
function mapLines(parser: ClaudeStreamParser, lines: readonly string[], events: CliStreamEvent[], emit: (step: ParseStep, into: CliStreamEvent[]) => unknown): boolean {
  for (const line of lines) {
    const step = parser.line(line);
    emit(step, events);
    if (step.stop) return true;
  }
  return false;
}
