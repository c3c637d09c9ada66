import { readLines, type AdapterContext, type CliStreamEvent, type QueryRequest } from '@svc-org/ai-sdk';
import { claudeEnvPatch } from '../settings/claude-env-patch.js';
import { readSettings } from '../settings/read-settings.js';
import { redactSecrets } from '../settings/redact-secrets.js';
import { buildQueryArgs } from './build-query-args.js';
import { ClaudeStreamParser, type ParseStep } from './claude-stream-parser.js';
import { StderrTail } from './stderr-tail.js';

export interface RunOptions {
  /** Stream text and reasoning as deltas (`--include-partial-messages`). */
  partial: boolean;
  /** Receives each warning, already redacted. */
  onWarning(message: string): void;
}

/**
 * Runs one headless query through the host and yields canonical events. The host owns the process:
 * it kills it on cancel or timeout, and this generator then reports how it ended. Leaving the loop
 * early (a consumer that stops reading) kills the child too.
 */
export async function* runClaudeQuery(request: QueryRequest, ctx: AdapterContext, options: RunOptions): AsyncGenerator<CliStreamEvent> {
  const settings = await readSettings(ctx);
  const args = buildQueryArgs(request, settings, { partial: options.partial });
  const redact = (text: string) => redactSecrets(text, settings);
  ctx.host.log.debug('claude query', {
    cwd: request.cwd,
    resume: request.resume !== undefined,
    continue: request.continue === true,
    model: request.model ?? settings.model ?? null,
  });
  const child = await ctx.host.process.spawn(
    { command: ctx.cli.command, args, cwd: request.cwd, envPatch: claudeEnvPatch(settings), stdin: request.prompt },
    { signal: ctx.signal },
  );
  const stderr = new StderrTail();
  // Only its tail is ever used; a read error must not outlive a consumer that stopped early.
  const stderrRead = (async () => {
    for await (const chunk of child.stderr) stderr.push(chunk);
  })().catch(() => undefined);
  const parser = new ClaudeStreamParser();
  let exited = false;
  const emit = function* (step: ParseStep): Generator<CliStreamEvent> {
    for (const warning of step.warnings) options.onWarning(redact(warning));
    for (const event of step.events) yield event.type === 'error' ? { ...event, message: redact(event.message) } : event;
  };
  try {
    for await (const line of readLines(child.stdout)) {
      const step = parser.line(line);
      yield* emit(step);
      if (step.stop) {
        await child.kill('SIGTERM');
        break;
      }
    }
    const exit = await child.exited;
    exited = true;
    await stderrRead;
    // A cancel that raced the exit still counts as a cancel.
    const ended = ctx.signal.aborted && exit.killedBy === undefined ? { ...exit, killedBy: 'cancelled' as const } : exit;
    yield* emit(parser.end(ended, stderr.tail()));
  } finally {
    if (!exited) await child.kill('SIGTERM');
  }
}
