import {
  collectCliQueryStream,
  readLines,
  type AdapterContext,
  type CliAdapter,
  type CliQueryResult,
  type CliStreamEvent,
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
import { StderrTail } from './stderr-tail.js';

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

  async *stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamEvent> {
    const args = buildQueryArgs(request, 'stream-json');
    if (ctx.signal.aborted) {
      yield { type: 'finish', finishReason: 'cancelled' };
      return;
    }
    // stdin is closed at once: --prompt is "appended to input on stdin", so an open pipe could be read.
    const child = await ctx.host.process.spawn(
      { command: ctx.cli.command, args, cwd: request.cwd, stdin: '' },
      { signal: ctx.signal },
    );
    const stderr = new StderrTail();
    const stderrDrained = stderr.drain(child.stderr);
    const mapper = new QwenEventMapper((warning) => ctx.host.log.warn(warning));
    let exited = false;
    try {
      for await (const line of readLines(child.stdout)) {
        const parsed = parseStreamJsonLine(line);
        if ('warning' in parsed) ctx.host.log.warn(parsed.warning);
        else if ('message' in parsed) yield* mapper.map(parsed.message);
      }
      const exit = await child.exited;
      exited = true;
      await stderrDrained;
      yield* mapper.end({ exit, cancelled: ctx.signal.aborted || exit.killedBy === 'cancelled', stderr: stderr.summary() });
    } finally {
      // The consumer stopped early (or reading failed): the CLI must not outlive the call.
      if (!exited) await child.kill().catch(() => undefined);
    }
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
    const stderr = new StderrTail();
    stderr.push(run.stderr);
    events.push(...mapper.end({ exit: run, cancelled: ctx.signal.aborted || run.killedBy === 'cancelled', stderr: stderr.summary() }));
    const result = await collectCliQueryStream(events);
    result.warnings.push(...warnings);
    return result;
  }
}
