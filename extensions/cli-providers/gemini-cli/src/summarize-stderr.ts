import { redactSecrets, StderrTail } from '@svc-org/ai-sdk';
import { stripAnsi } from './strip-ansi.js';

// Startup notices 0.61.0 prints on every headless run; they say nothing about why a run failed.
const NOISE = [/^Warning: 256-color support not detected\./, /^Ripgrep is not available\./];
const MAX_LINES = 20;
const MAX_CHARS = 2000;

/** The end of stderr, fit for an error message: colours stripped, startup noise and secrets removed. */
export function summarizeStderr(stderr: string, secrets: readonly string[]): string {
  const tail = new StderrTail({ ignore: NOISE });
  tail.push(stripAnsi(stderr));
  let text = tail.lines().slice(-MAX_LINES).join('\n');
  if (text.length > MAX_CHARS) text = `…${text.slice(-MAX_CHARS)}`;
  return redactSecrets(text, secrets);
}
