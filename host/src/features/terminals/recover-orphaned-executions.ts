import type { ExecutionStore } from '../domain/index.js';
import { endOfRestart } from '../lifecycle/index.js';
import type { Logger } from '../../platform/logging/index.js';
import { isAlive, killProcessTree, processStartTime } from '../../platform/processes/index.js';

export interface RecoveryReport {
  /** Executions that were live when the previous service ended; now ended `interrupted` (resumable). */
  interrupted: number[];
  /** Leftover process trees that were still running and were killed. */
  killed: number[];
}

/**
 * Runs once when `svc serve` starts, before it accepts requests. A PTY belongs to the process
 * that opened it, so a terminal cannot be reattached after a restart: every execution still
 * RUNNING or PAUSED ends `interrupted` (resuming the task continues its session), and its process tree is killed when it is provably ours
 * (the pid's start time matches the one stored at spawn).
 */
export function recoverOrphanedExecutions(executions: ExecutionStore, logger: Logger): RecoveryReport {
  const report: RecoveryReport = { interrupted: [], killed: [] };
  for (const execution of executions.live()) {
    if (execution.pid !== null) {
      const started = processStartTime(execution.pid);
      if (started !== undefined && execution.pidStartTime !== null && started === execution.pidStartTime) {
        killProcessTree(execution.pid, 'SIGKILL');
        report.killed.push(execution.pid);
      } else if (started === undefined) {
        // The leader is gone; members of its process group may remain. The kernel does not hand out
        // a pid while a process group of that id exists, so this reaches only what we started.
        try {
          process.kill(-execution.pid, 'SIGKILL');
          report.killed.push(execution.pid);
        } catch {
          // nothing left
        }
      }
      if (started !== undefined && isAlive(execution.pid) && started !== execution.pidStartTime) {
        logger.warn('pid of a lost execution now belongs to another process; left alone', { executionId: execution.id, pid: execution.pid });
      }
    }
    executions.finish(execution.id, endOfRestart());
    report.interrupted.push(execution.id);
    logger.warn('execution interrupted: the service restarted under it (resume the task to continue)', { executionId: execution.id, taskId: execution.taskId });
  }
  return report;
}
