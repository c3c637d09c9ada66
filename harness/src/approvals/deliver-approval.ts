import { SvcError } from '@svc-org/ai-sdk';
import type { TerminalManager } from '@svc-org/host/features/terminals';
import type { Logger } from '@svc-org/host/platform/logging';
import { deliverAnswer, type AnswerLedger } from '../messaging/deliver-answer.js';
import type { Approval } from './approval-record.js';
import type { ApprovalStore } from './approval-store.js';

/** What the agent reads when a parked request is answered: the outcome, and what to do next. */
export function outcomeText(approval: Approval): string {
  const who = `${approval.answeredBy ?? 'someone'} via ${approval.answeredVia ?? 'svc'}`;
  const call = approval.shown.split('\n').slice(0, 2).join(', ');
  if (approval.status === 'ALLOWED') {
    const scope = approval.answer === 'allow_for_task' ? 'for the rest of this task' : 'once';
    return `Approval #${approval.id} (${call}) was allowed ${scope} by ${who}. Make exactly the same call again now.`;
  }
  return `Approval #${approval.id} (${call}) was denied by ${who}: ${approval.reason ?? 'no reason given'}. Do not make this call again; continue without it or end your turn with what you need.`;
}

function ledger(store: ApprovalStore): AnswerLedger {
  return {
    recordResumeOutcome: (id) => store.recordDelivery(id, 'delivered'),
    // The answer stands: it is not typed twice, and the audit says it never reached the terminal.
    reopen: (id) => store.recordDelivery(id, 'failed'),
  };
}

/** Types a parked request's outcome into its task (the ask_human path: the live terminal, or the session resumed). */
export async function deliverApprovalOutcome(terminals: TerminalManager, store: ApprovalStore, approval: Approval): Promise<void> {
  await deliverAnswer(terminals, ledger(store), { id: approval.id, taskId: approval.taskId, reply: outcomeText(approval) });
}

/** On the service's start: outcomes a killed service recorded but never typed are typed now, once. */
export async function deliverUndeliveredApprovals(terminals: TerminalManager, store: ApprovalStore, logger: Logger): Promise<void> {
  for (const approval of store.undelivered()) {
    try {
      await deliverApprovalOutcome(terminals, store, approval);
      logger.info('an approval answered before the service stopped was typed into its task', { approvalId: approval.id, taskId: approval.taskId });
    } catch (error) {
      logger.warn('an approval answered before the service stopped could not be typed into its task', {
        approvalId: approval.id,
        taskId: approval.taskId,
        code: SvcError.isInstance(error) ? error.code : 'internal',
      });
    }
  }
}

/**
 * Crash-safety tests only: SVC_TEST_CRASH_AT=approval:answered makes `svc serve` SIGKILL itself once
 * an answer is recorded, before its outcome is typed (as `kill -9` would).
 */
export function approvalCrashPoint(point: 'approval:answered'): void {
  if (process.env.SVC_TEST_CRASH_AT !== point) return;
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
}
