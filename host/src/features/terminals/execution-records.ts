// The database side of a task terminal's run: the execution row opened before the CLI starts, its
// process, and its end (spawn failure or exit), each logged once.
import type { Domain, ExecutionRecord, NewExecution } from '../domain/index.js';
import { endOfExit, endOfSpawnFailure } from '../lifecycle/index.js';
import type { Logger } from '../../platform/logging/index.js';
import { processStartTime } from '../../platform/processes/index.js';
import type { TerminalExit } from './terminal.js';

export interface OpenExecution extends NewExecution {
  /** The hash of the task credential the terminal's hooks and `svc mcp` present. */
  credentialHash: string;
}

export class ExecutionRecords {
  constructor(
    private readonly domain: Domain,
    private readonly logger: Logger,
  ) {}

  open(request: OpenExecution): ExecutionRecord {
    const { credentialHash, ...row } = request;
    const execution = this.domain.executions.create(row);
    this.domain.executions.storeCredential(execution.id, credentialHash);
    return execution;
  }

  /** Says in the log which part of the wiring the provider could not attach (nothing waits for it). */
  logUnsupported(execution: ExecutionRecord): void {
    const unsupported = execution.unsupportedAttachments;
    if (unsupported.length === 0) return;
    this.logger.warn('the provider could not attach part of the task terminal wiring', {
      taskId: execution.taskId,
      executionId: execution.id,
      provider: execution.providerId,
      unsupported,
    });
  }

  /** The CLI could not be started: the execution ends FAILED with the spawn's error. */
  spawnFailed(executionId: number, failure: { code: string; message: string }): void {
    this.domain.executions.finish(executionId, endOfSpawnFailure(failure));
  }

  /** The process that runs, with its start time, so a later service run tells it from a reused pid. */
  spawned(executionId: number, pid: number): void {
    this.domain.executions.setProcess(executionId, pid, processStartTime(pid) ?? null);
  }

  /** The CLI exited: see endOfExit (only a real failure is FAILED). */
  finish(taskId: number, executionId: number, exit: TerminalExit, leftChanges?: boolean): ExecutionRecord {
    const record = this.domain.executions.finish(executionId, endOfExit(exit, leftChanges));
    this.logger.info('terminal ended', { taskId, executionId, status: record.status, outcome: record.outcome, exitCode: exit.exitCode, signal: exit.signal, reason: exit.reason });
    return record;
  }
}
