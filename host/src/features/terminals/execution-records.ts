// The database side of a task terminal's run: the execution row opened before the CLI starts, its
// process, and its end (spawn failure or exit), each logged once.
import type { Domain, ExecutionRecord, NewExecution } from '../domain/index.js';
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
    const unsupported = row.unsupportedAttachments ?? [];
    if (unsupported.length > 0) {
      this.logger.warn('the provider could not attach part of the task terminal wiring', {
        taskId: row.taskId,
        executionId: execution.id,
        provider: row.providerId,
        unsupported,
      });
    }
    return execution;
  }

  /** The CLI could not be started: the execution ends FAILED with the spawn's error. */
  spawnFailed(executionId: number, failure: { code: string; message: string }): void {
    this.domain.executions.finish(executionId, { status: 'FAILED', endReason: 'spawn_failed', error: { code: failure.code, message: failure.message } });
  }

  /** The process that runs, with its start time, so a later service run tells it from a reused pid. */
  spawned(executionId: number, pid: number): void {
    this.domain.executions.setProcess(executionId, pid, processStartTime(pid) ?? null);
  }

  /** The CLI exited: COMPLETED on a clean exit, FAILED otherwise. */
  finish(taskId: number, executionId: number, exit: TerminalExit): ExecutionRecord {
    const ok = exit.exitCode === 0 && exit.signal === null;
    const record = this.domain.executions.finish(executionId, {
      status: ok ? 'COMPLETED' : 'FAILED',
      endReason: exit.reason,
      exitCode: exit.exitCode,
      exitSignal: exit.signal,
    });
    this.logger.info('terminal ended', { taskId, executionId, status: record.status, exitCode: exit.exitCode, signal: exit.signal, reason: exit.reason });
    return record;
  }
}
