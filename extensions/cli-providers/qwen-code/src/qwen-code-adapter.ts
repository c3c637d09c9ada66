import {
  CliProcess,
  collectCliQueryStream,
  type AdapterContext,
  type CliAdapter,
  type CliQueryResult,
  type CliStreamEvent,
  type CliStreamItem,
  type QueryRequest,
  type SessionProcess,
  type SessionRequest,
} from '@svc-org/ai-sdk';
import { attachmentSettings } from './attachment-settings.js';
import { buildQueryArgs } from './build-query-args.js';
import { buildSessionArgs } from './build-session-args.js';
import { parseJsonOutput } from './parse-json-output.js';
import { parseStreamJsonLine } from './parse-stream-json-line.js';
import { QwenEventMapper } from './qwen-event-mapper.js';
import { summarizeStderr } from './summarize-stderr.js';

// Keeps the end of the CLI's stderr for error messages: the cause of a failure is at the end.
const STDERR_KEEP = 4_000;

/**
 * Qwen Code (`qwen`): the interactive CLI for terminal sessions, headless `--prompt` runs for queries.
 * It only ever starts the CLI the host resolved, with an argument array. It never installs the CLI,
 * sets its base URL or key, logs in, or reads or writes ~/.qwen: those belong to the user and the CLI.
 */
export class QwenCodeAdapter implements CliAdapter {
  buildSessionProcess(request: SessionRequest, ctx: AdapterContext): SessionProcess {
    // Hooks travel in a system-defaults settings file of the run's folder; the rest as flags.
    const attached = attachmentSettings(request.attachments, request.runtimeDir);
    return {
      command: ctx.cli.command,
      args: buildSessionArgs(request),
      cwd: request.cwd,
      envPatch: attached.envPatch,
      ...(attached.files.length > 0 ? { files: attached.files } : {}),
      ...(attached.unsupported.length > 0 ? { unsupportedAttachments: attached.unsupported } : {}),
    };
  }

  /** Canonical events as they happen, the events of one chunk of output as one batch; warnings go to the host log. */
  async *stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamItem> {
    const args = buildQueryArgs(request, 'stream-json');
    if (ctx.signal.aborted) {
      yield { type: 'finish', finishReason: 'cancelled' };
      return;
    }
    // stdin is closed at once: --prompt is "appended to input on stdin", so an open pipe could be read.
    const run = await CliProcess.start(ctx, { command: ctx.cli.command, args, cwd: request.cwd, stdin: '' }, { stderr: { limit: STDERR_KEEP } });
    const warn = (warning: string) => ctx.host.log.warn(warning);
    const mapper = new QwenEventMapper(warn);
    // Leaving this loop early (the consumer stopped reading) kills the CLI: it must not outlive the call.
    for await (const batch of run.lineBatches()) {
      // One plain call per chunk, not a loop in this generator.
      const events = mapLines(batch, mapper, warn);
      if (events.length > 0) yield events;
    }
    const exit = await run.wait();
    yield mapper.end({ exit, cancelled: exit.endedBy === 'cancelled' || exit.endedBy === 'unloaded', stderr: summarizeStderr(exit.stderr.text()) });
  }

  async generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    const args = buildQueryArgs(request, 'json');
    if (ctx.signal.aborted) return collectCliQueryStream([{ type: 'finish', finishReason: 'cancelled' }]);
    const run = await ctx.host.process.run(
      { command: ctx.cli.command, args, cwd: request.cwd, stdin: '' },
      { signal: ctx.signal },
    );
    const warnings: string[] = [];
    const mapper = new QwenEventMapper((warning) => warnings.push(warning));
    const output = parseJsonOutput(run.stdout);
    warnings.push(...output.warnings);
    const events = output.messages.flatMap((message) => mapper.map(message));
    events.push(...mapper.end({ exit: run, cancelled: ctx.signal.aborted || run.killedBy === 'cancelled', stderr: summarizeStderr(run.stderr.slice(-STDERR_KEEP)) }));
    const result = await collectCliQueryStream(events);
    result.warnings.push(...warnings);
    return result;
  }
}

/** The events of a chunk's lines, in order; a line that is not a message is a warning. */
function mapLines(lines: readonly string[], mapper: QwenEventMapper, warn: (warning: string) => void): CliStreamEvent[] {
  const events: CliStreamEvent[] = [];
  for (const line of lines) {
    const parsed = parseStreamJsonLine(line);
    if ('warning' in parsed) warn(parsed.warning);
    else if ('message' in parsed) mapper.mapInto(parsed.message, events);
  }
  return events;
}
