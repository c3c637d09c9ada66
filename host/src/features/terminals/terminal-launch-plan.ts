// What a start or a resume of a task terminal runs: the connection, fresh or resumed, and which
// CLI session continues.
import { SvcError } from '@svc-org/ai-sdk';
import type { ConnectionStore } from '../connections/index.js';
import type { Domain } from '../domain/index.js';

export interface StartTerminalRequest {
  /** Connection name; `resume` defaults to the previous execution's connection. */
  connection?: string;
  model?: string;
  cols?: number;
  rows?: number;
}

export interface ResumeTerminalRequest extends StartTerminalRequest {
  /** Start fresh even when the task has history. */
  fresh?: boolean;
}

export interface LaunchPlan {
  connection: string;
  mode: 'fresh' | 'resume';
  sessionId?: string;
  model?: string;
  cols?: number;
  rows?: number;
}

/** A fresh start on the connection the request names. */
export function startPlan(taskId: number, request: StartTerminalRequest): LaunchPlan {
  if (!request.connection) {
    throw new SvcError({ code: 'connection_required', message: `say which connection runs task ${taskId} (e.g. --connection <name>)` });
  }
  return { ...request, connection: request.connection, mode: 'fresh' };
}

/**
 * Continue/Retry: resumes the task's CLI session (the stored session id, else the CLI's most
 * recent session in the project folder) on the previous connection; fresh when there is no history.
 */
export function resumePlan(domain: Domain, connections: ConnectionStore, taskId: number, request: ResumeTerminalRequest): LaunchPlan {
  domain.tasks.get(taskId);
  const latest = domain.executions.latestForTask(taskId);
  const connection = request.connection ?? latest?.connectionName;
  if (!connection) {
    throw new SvcError({
      code: 'connection_required',
      message: `task ${taskId} has never run; say which connection starts it (e.g. --connection <name>)`,
    });
  }
  if (!latest || request.fresh) return { ...request, connection, mode: 'fresh' };
  const providerId = connections.get(connection).providerId;
  // A session id means something only to the provider that made it.
  if (providerId !== latest.providerId) return { ...request, connection, mode: 'fresh' };
  const withSession = domain.executions.latestSessionForTask(taskId);
  const sessionId = withSession && withSession.providerId === providerId ? withSession.sessionId ?? undefined : undefined;
  return { ...request, connection, mode: 'resume', ...(sessionId ? { sessionId } : {}) };
}
