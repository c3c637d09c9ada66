// vitest globalSetup: a process a test starts and never ends (a command left waiting when an assertion
// failed, a child its parent's kill orphaned) outlives the run and keeps a core busy for hours. The
// setup marks the run with a variable every process the tests start inherits; the teardown names each
// marked process still running, then ends it. vitest's own workers (children of this process) are not
// the tests' processes. svc strips its own SVC_* variables from the children it starts, so the
// variable's name is not one of them.
import { randomUUID } from 'node:crypto';
import { isRunning, processesWithEnv, type ProcessIdentity } from './process-tree.js';

export const RUN_MARK = 'TEST_RUN_MARK';
/** How long a process found still running at the end may take to end on its own. */
const ENDING_GRACE_MS = 3_000;

/** The marked processes still running, other than this process's own children (vitest's workers). */
export function leftoverProcesses(mark: string, runner = process.pid): ProcessIdentity[] {
  return processesWithEnv(RUN_MARK, mark).filter((found) => found.ppid !== runner);
}

/** Ends `processes` (TERM, then KILL to any still there after `graceMs`); the ones that were running. */
export async function endProcesses(processes: ProcessIdentity[], graceMs = 1_000): Promise<ProcessIdentity[]> {
  const signal = (found: ProcessIdentity, name: NodeJS.Signals) => {
    try {
      if (isRunning(found)) process.kill(found.pid, name);
    } catch {
      // It ended meanwhile.
    }
  };
  const running = processes.filter(isRunning);
  for (const found of running) signal(found, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (running.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const found of running) signal(found, 'SIGKILL');
  return running;
}

export function setup(): (() => Promise<void>) | undefined {
  // vitest runs a global setup once for each project of the run, in this one process: mark the run once.
  if (process.env[RUN_MARK] !== undefined || process.platform !== 'linux') return undefined;
  const mark = randomUUID();
  process.env[RUN_MARK] = mark;
  return async () => {
    const candidates = leftoverProcesses(mark);
    if (candidates.length === 0) return;
    // One that is ending already is given a moment to go: a test stopped it and did not wait, or a
    // terminal holder ends what it holds within seconds of its SVC_HOME being removed.
    const deadline = Date.now() + ENDING_GRACE_MS;
    while (candidates.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = candidates.filter(isRunning);
    if (left.length === 0) return;
    process.stderr.write(
      `\n${left.length} process(es) the tests started were still running after the run; ending them (a test must end what it starts, on failure too):\n` +
        left.map((found) => `  ${found.pid} ${found.command.slice(0, 300)}\n`).join(''),
    );
    await endProcesses(left);
  };
}
