import { SvcError } from '@svc-org/ai-sdk';
import type { Redactor } from '../logging/index.js';
import type { CliIo } from './cli-io.js';
import { styleFor } from './style.js';
import { terminalText } from './terminal-text.js';

/**
 * `error <code>: <message>` on stderr, plus the fix when the error carries one. Always redacted.
 * A Node system error (ENOENT…) is shown as `internal`: its code is not one of ours to promise.
 */
export function printError(io: CliIo, error: unknown, redactor?: Redactor): void {
  // Redacted, and escaped: a message may carry a provider's or a CLI's text.
  const redact = (text: string) => terminalText(redactor ? redactor.text(text) : text);
  const style = styleFor(io.stderr, io.env);
  const ours = SvcError.hasCode(error) && /^[a-z][a-z0-9_]*$/.test(error.code) && typeof (error as { syscall?: unknown }).syscall !== 'string';
  if (ours) {
    io.stderr.write(`${style.red(`error ${error.code}`)}: ${redact(error.message)}\n`);
    const fix = (error as { details?: { fix?: unknown } }).details?.fix;
    if (typeof fix === 'string') io.stderr.write(`  ${style.bold('fix')}: ${redact(fix)}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`${style.red('error internal')}: ${redact(message)}\n`);
}
