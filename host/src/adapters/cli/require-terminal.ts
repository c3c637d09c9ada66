import { SvcError } from '@svc-org/ai-sdk';
import type { CliIo } from './cli-io.js';

/**
 * Interactive commands need a terminal on stdin: without one they would wait for keys that never
 * come (or end on the first EOF with a confusing error). They refuse at once instead.
 */
export function requireTerminal(io: CliIo, command: string): void {
  if (io.stdin.isTTY) return;
  throw new SvcError({
    code: 'terminal_required',
    message: `${command} is interactive and stdin is not a terminal`,
    details: { fix: 'run it in a terminal; from a script use `svc query` or `svc task output`' },
  });
}
