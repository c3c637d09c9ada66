import { publicError } from '../../platform/errors/index.js';
import type { Redactor } from '../../platform/logging/index.js';
import type { CliIo } from './cli-io.js';
import { styleFor } from './style.js';
import { terminalText } from './terminal-text.js';

/**
 * `error <code>: <message>` on stderr, plus the fix when the error carries one. Always redacted.
 * The code and message are the ones HTTP and MCP answer with (`publicError`: a registered code; a
 * provider's own code folded into `plugin_error`; anything else `internal`). Only the CLI, which runs
 * on the person's own machine, adds the cause of an unexpected error on a line of its own, redacted:
 * HTTP and MCP keep it in the service log.
 */
export function printError(io: CliIo, error: unknown, redactor?: Redactor): void {
  // Redacted, and escaped: a message may carry a provider's or a CLI's text.
  const redact = (text: string) => terminalText(redactor ? redactor.text(text) : text);
  const style = styleFor(io.stderr, io.env);
  const shown = publicError(error);
  io.stderr.write(`${style.red(`error ${shown.code}`)}: ${redact(shown.message)}\n`);
  const pluginCode = shown.details?.pluginCode;
  if (typeof pluginCode === 'string') io.stderr.write(`  ${style.bold('provider code')}: ${pluginCode} (${String(shown.details?.pluginId)})\n`);
  const fix = shown.details?.fix;
  if (typeof fix === 'string') io.stderr.write(`  ${style.bold('fix')}: ${redact(fix)}\n`);
  if (shown.unexpected) {
    const cause = error instanceof Error ? error.message : String(error);
    if (cause && cause !== shown.message) io.stderr.write(`  ${style.bold('cause')}: ${redact(cause)}\n`);
  }
}
