// Cancel mid-stream the way a user does: Ctrl-C (SIGINT) to a running `svc query`, then check that
// every process the CLI started is gone.
import { parseEvents, type ConformanceSandbox } from './conformance-sandbox.js';
import { isRunning, processTreeBelow, type ProcessIdentity } from '../../support/process-tree.js';
import { waitFor } from '../../support/svc-process.js';
import type { CliStreamEvent } from '@svc-org/ai-sdk';

export interface CancelOutcome {
  code: number | null;
  events: CliStreamEvent[];
  stderr: string;
  /** The processes below `svc` while the answer stalled: the CLI and whatever it started. */
  tree: ProcessIdentity[];
  /** Those still running once svc exited and the kill grace period passed. */
  survivors: ProcessIdentity[];
}

/** `stalled()` says when the CLI is mid-answer (e.g. the model server saw the request that stalls). */
export async function cancelQuery(
  sandbox: ConformanceSandbox,
  connection: string,
  prompt: string,
  stalled: (stdout: string) => boolean,
): Promise<CancelOutcome> {
  const child = sandbox.svc.start(['query', '--connection', connection, '--json', '--cwd', sandbox.workspace, prompt]);
  child.stdin!.end();
  let exited = false;
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  await waitFor(() => stalled(child.output.stdout) || exited, 120_000, 'the CLI to stall mid-answer');
  if (exited) throw new Error(`svc query ended before the answer stalled (exit ${await closed})\n${child.output.stdout}\n${child.output.stderr}`);
  const tree = processTreeBelow(child.pid!);
  child.kill('SIGINT');
  const code = await closed;
  // The host sends SIGTERM to the tree and SIGKILL after a 2 s grace period.
  await waitFor(() => tree.every((process) => !isRunning(process)), 10_000, 'the CLI processes to end').catch(() => undefined);
  return { code, events: parseEvents(child.output.stdout), stderr: child.output.stderr, tree, survivors: tree.filter(isRunning) };
}
