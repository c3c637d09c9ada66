import type { ExecutionRecord, ExecutionStore } from '../domain/index.js';
import { endOfExit, endOfRestart } from '../lifecycle/index.js';
import type { Logger } from '../../platform/logging/index.js';
import { isAlive, killProcessTree, processStartTime } from '../../platform/processes/index.js';
import type { HeldByHolder } from './holder/holder-pool.js';
import type { HolderExitRecord } from './holder/holder-protocol.js';

export interface RecoveryReport {
  /** Executions that were live when the previous service ended and whose terminal is gone; now ended `interrupted` (resumable). */
  interrupted: number[];
  /** Leftover process trees that were still running and were killed. */
  killed: number[];
  /** Live executions whose terminal a holder still runs: the service takes them back. */
  reattach: Array<{ execution: ExecutionRecord; held: HeldByHolder }>;
  /** Executions whose CLI ended while no service was there: recorded with their real exit. */
  endedAway: number[];
}

export interface HeldTerminals {
  /** What the holders hold (live terminals and ends no service collected). */
  held: HeldByHolder[];
  /** The ends the holders logged. */
  exits: Map<number, HolderExitRecord>;
}

/**
 * Runs once when `svc serve` starts, before it accepts requests. An execution still RUNNING or
 * PAUSED whose terminal a holder still runs is taken back (`reattach`); one whose CLI ended while
 * the service was away gets its real exit code and end reason; only one whose terminal is gone
 * with its holder (or that lived in the service's own process) ends `interrupted` (resuming the task
 * continues its session), and its process tree
 * is killed when it is provably ours (the pid's start time matches the one stored at spawn).
 */
export function recoverOrphanedExecutions(executions: ExecutionStore, logger: Logger, holders: HeldTerminals = { held: [], exits: new Map() }): RecoveryReport {
  const report: RecoveryReport = { interrupted: [], killed: [], reattach: [], endedAway: [] };
  const byExecution = new Map(holders.held.map((entry) => [entry.terminal.meta.executionId, entry]));
  const live = executions.live();
  for (const execution of live) {
    const held = byExecution.get(execution.id);
    byExecution.delete(execution.id);
    if (held && !held.terminal.exit) {
      report.reattach.push({ execution, held });
      continue;
    }
    const exit = held?.terminal.exit ?? holders.exits.get(execution.id)?.exit;
    if (exit) {
      executions.finish(execution.id, endOfExit(exit));
      if (held) held.connection.forget(held.terminal.id);
      report.endedAway.push(execution.id);
      logger.info('terminal ended while the service was away', { executionId: execution.id, taskId: execution.taskId, exitCode: exit.exitCode, signal: exit.signal, reason: exit.reason });
      continue;
    }
    if (execution.pid !== null) killLeftover(execution, report, logger);
    executions.finish(execution.id, endOfRestart());
    report.interrupted.push(execution.id);
    logger.warn('execution interrupted: its terminal was lost with the service (resume the task to continue)', { executionId: execution.id, taskId: execution.taskId });
  }
  // What a holder holds that no live execution claims: ends already recorded are forgotten, a
  // terminal no execution knows (its record ended meanwhile) is not left running.
  for (const entry of byExecution.values()) {
    if (!entry.terminal.exit && isAlive(entry.terminal.pid)) {
      killProcessTree(entry.terminal.pid, 'SIGKILL');
      report.killed.push(entry.terminal.pid);
    }
    entry.connection.forget(entry.terminal.id);
  }
  return report;
}

function killLeftover(execution: ExecutionRecord, report: RecoveryReport, logger: Logger): void {
  const pid = execution.pid!;
  const started = processStartTime(pid);
  if (started !== undefined && execution.pidStartTime !== null && started === execution.pidStartTime) {
    killProcessTree(pid, 'SIGKILL');
    report.killed.push(pid);
  } else if (started === undefined) {
    // The leader is gone; members of its process group may remain. The kernel does not hand out
    // a pid while a process group of that id exists, so this reaches only what we started.
    try {
      process.kill(-pid, 'SIGKILL');
      report.killed.push(pid);
    } catch {
      // nothing left
    }
  }
  if (started !== undefined && isAlive(pid) && started !== execution.pidStartTime) {
    logger.warn('pid of a lost execution now belongs to another process; left alone', { executionId: execution.id, pid });
  }
}
