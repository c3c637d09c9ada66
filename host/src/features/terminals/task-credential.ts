// A task terminal proves which task it runs with a credential minted for its execution, not with a
// task id an agent could set to any value. Only the hash is stored; the execution's end revokes it.
import { createHash, randomBytes } from 'node:crypto';
import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '../../platform/db/index.js';

const PREFIX = 'svct_';

export interface TaskCredential {
  /** Given to the terminal's `svc mcp` as `SVC_TASK_CREDENTIAL`; never stored or logged. */
  credential: string;
  hash: string;
}

export function mintTaskCredential(): TaskCredential {
  const credential = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  return { credential, hash: hashCredential(credential) };
}

export function hashCredential(credential: string): string {
  return createHash('sha256').update(credential, 'utf8').digest('hex');
}

/**
 * The task and execution a credential speaks for while its execution is live; a coded refusal
 * otherwise. `claimedTaskId` (the terminal's `SVC_TASK_ID`) must name the same task.
 */
export function verifyTaskCredential(db: Db, credential: string | undefined, claimedTaskId: number | undefined): { taskId: number; executionId: number } {
  if (credential === undefined || credential === '') {
    throw new SvcError({
      code: 'task_credential_required',
      message: 'SVC_TASK_ID alone does not say which task this is: a task terminal also carries its execution\'s credential (SVC_TASK_CREDENTIAL)',
      details: { fix: 'call from the task terminal svc started, or leave SVC_TASK_ID unset' },
    });
  }
  const row = db
    .prepare(
      `SELECT e.id AS execution_id, e.task_id FROM execution_credentials c JOIN executions e ON e.id = c.execution_id
       WHERE c.credential_hash = ? AND e.status IN ('RUNNING', 'PAUSED')`,
    )
    .get(hashCredential(credential)) as { execution_id: number; task_id: number } | undefined;
  if (!row || (claimedTaskId !== undefined && claimedTaskId !== row.task_id)) {
    throw new SvcError({
      code: 'task_credential_invalid',
      message: 'this task credential is unknown, revoked (its execution ended) or belongs to another task',
      details: { fix: 'a credential is valid only inside the task terminal it was minted for, while it runs' },
    });
  }
  return { taskId: row.task_id, executionId: row.execution_id };
}
