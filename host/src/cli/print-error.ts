import { SvcError } from '@svc-org/ai-sdk';
import type { Redactor } from '../logging/index.js';
import type { CliIo } from './cli-io.js';

/** `error <code>: <message>` on stderr, plus the fix when the error carries one. Always redacted. */
export function printError(io: CliIo, error: unknown, redactor?: Redactor): void {
  const redact = (text: string) => (redactor ? redactor.text(text) : text);
  if (SvcError.hasCode(error)) {
    io.stderr.write(`error ${error.code}: ${redact(error.message)}\n`);
    const fix = (error as { details?: { fix?: unknown } }).details?.fix;
    if (typeof fix === 'string') io.stderr.write(`  fix: ${redact(fix)}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`error internal: ${redact(message)}\n`);
}
