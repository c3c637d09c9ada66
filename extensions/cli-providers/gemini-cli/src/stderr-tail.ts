import { redactSecrets } from './redact-secrets.js';
import { stripAnsi } from './strip-ansi.js';

// Startup notices 0.61.0 prints on every headless run; they say nothing about why a run failed.
const NOISE = [/^Warning: 256-color support not detected\./, /^Ripgrep is not available\./];
const MAX_LINES = 20;
const MAX_CHARS = 2000;

/** The end of stderr, fit for an error message: colours stripped, startup noise and secrets removed. */
export function stderrTail(stderr: string, secrets: readonly string[]): string {
  const lines = stripAnsi(stderr)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !NOISE.some((noise) => noise.test(line)));
  let tail = lines.slice(-MAX_LINES).join('\n');
  if (tail.length > MAX_CHARS) tail = `…${tail.slice(-MAX_CHARS)}`;
  return redactSecrets(tail, secrets);
}
