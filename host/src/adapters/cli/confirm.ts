import { createInterface } from 'node:readline';
import { SvcError } from '@svc-org/ai-sdk';
import { streamOf, type CliIo } from './cli-io.js';

/** Asks a yes/no question on the terminal; without a terminal it refuses instead of guessing. */
export async function confirm(io: CliIo, question: string): Promise<boolean> {
  if (!io.stdin.isTTY) {
    throw new SvcError({
      code: 'confirmation_required',
      message: 'confirmation is needed but stdin is not a terminal; re-run with --yes to confirm',
    });
  }
  const rl = createInterface({ input: io.stdin, output: streamOf(io.stdout) });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
