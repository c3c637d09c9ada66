import type { QueryRequest } from '@svc-org/ai-sdk';
import type { HostServices } from '../../../host-services.js';
import { streamOf, type CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { terminalJson, terminalLine, terminalText } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

export const QUERY_USAGE =
  'svc query --provider <id> [--connection <name>] [--model <m>] [--resume <id> | --continue] [--max-turns <n>] [--cwd <dir>] [--timeout <seconds>] [--json] "<prompt>"';

/**
 * Streams a query: text to stdout as it arrives (with --json, one canonical event per line).
 * Exit 0 on success, 1 on an `error` event (its code on stderr), 130 when interrupted.
 */
export async function queryCommand(args: string[], io: CliIo, open: () => Promise<HostServices>, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      provider: { type: 'string', short: 'p' },
      connection: { type: 'string' },
      model: { type: 'string', short: 'm' },
      resume: { type: 'string', short: 'r' },
      continue: { type: 'boolean', short: 'c' },
      'max-turns': { type: 'string' },
      cwd: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
    },
    QUERY_USAGE,
  );
  const services = await open();
  const connection = values.connection ? services.connections.get(values.connection) : undefined;
  const provider = values.provider ?? connection?.providerId;
  if (!provider) throw new UsageError(`--provider is required\nusage: ${QUERY_USAGE}`);
  if (positionals.length !== 1 || positionals[0]!.trim() === '') throw new UsageError(`expected one prompt argument\nusage: ${QUERY_USAGE}`);
  if (values.resume && values.continue) throw new UsageError('--resume and --continue exclude each other');
  const maxTurns = values['max-turns'] === undefined ? undefined : positiveInteger(values['max-turns'], '--max-turns');
  const timeoutMs = values.timeout === undefined ? undefined : positiveInteger(values.timeout, '--timeout') * 1000;

  const target = await services.extensions.prepare(provider, { connection: values.connection, signal, timeoutMs });
  const request: QueryRequest = {
    prompt: positionals[0]!,
    cwd: values.cwd ?? io.cwd,
    ...(values.model ? { model: values.model } : {}),
    ...(values.resume ? { resume: values.resume } : {}),
    ...(values.continue ? { continue: true } : {}),
    ...(maxTurns ? { maxTurns } : {}),
  };

  // An answer comes over time: a reader that stops reading holds it in memory, not svc (Ctrl-C still cancels).
  const stdout = streamOf(io.stdout);
  const stderr = streamOf(io.stderr);
  let status = 0;
  let endsWithNewline = true;
  let wroteText = false;
  // On a terminal the answer is shown, never acted on; piped, it stays byte for byte.
  const answer = stdout.isTTY ? terminalText : (text: string) => text;
  for await (const event of services.extensions.stream(target, request)) {
    if (values.json) {
      stdout.write(`${terminalJson(JSON.stringify(event))}\n`);
    } else if (event.type === 'text') {
      stdout.write(answer(event.text));
      wroteText = true;
      endsWithNewline = event.text.endsWith('\n');
    }
    if (event.type === 'error') {
      // An interrupted call ends with `cancelled`: that is the 130 of Ctrl-C, not a failure.
      status = event.code === 'cancelled' && signal.aborted ? status || 130 : 1;
      if (!values.json) {
        if (wroteText && !endsWithNewline) stdout.write('\n');
        endsWithNewline = true;
      }
      stderr.write(`${terminalLine(`error ${event.code}: ${services.logger.redactor.text(event.message)}`)}\n`);
      if (event.fix) stderr.write(`${terminalLine(`  fix: ${services.logger.redactor.text(event.fix)}`)}\n`);
    }
    if (event.type === 'finish') {
      if (event.finishReason === 'cancelled') status = status || 130;
      if (event.finishReason === 'max-turns' && !values.json) stderr.write('stopped: the maximum number of turns was reached\n');
    }
    if (event.type === 'warning' && !values.json) stderr.write(`${terminalLine(`warning: ${services.logger.redactor.text(event.message)}`)}\n`);
    if (event.type === 'session' && !values.json) stderr.write(`${terminalLine(`session ${event.sessionId}`)}\n`);
  }
  if (!values.json && wroteText && !endsWithNewline) stdout.write('\n');
  return signal.aborted && status !== 1 ? 130 : status;
}

function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${flag} must be a positive integer (got "${text}")`);
  return value;
}
