import { SvcError } from '@svc-org/ai-sdk';
import type { OperationContext } from '@svc-org/host/operation-framework';
import { harnessStores } from '../messaging/harness-stores.js';
import { applyApprovalAnswer } from './approval-answers.js';
import type { Approval } from './approval-record.js';
import type { ApprovalPolicy } from './approval-store.js';
import { approvalStores } from './approval-stores.js';

/** A request nobody answers is escalated after 10 minutes and stops its task after 24 hours. */
export const DEFAULT_APPROVAL_POLICY: Omit<ApprovalPolicy, 'source'> = { action: 'escalate', afterMs: 10 * 60_000, stopAfterMs: 24 * 3_600_000, allowedTools: [] };

export interface TimeoutOutcome {
  approvalId: number;
  taskId: number;
  outcome: 'denied' | 'allowed' | 'escalated' | 'stopped';
}

const minutes = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} seconds`);

/**
 * Applies each task's timeout policy to its OPEN requests at `nowMs`: deny, allow-listed default,
 * escalate to the parent task (once), or stop the task; past the policy's stop time every request
 * stops its task. Each outcome is an answer like a person's (first answer wins), by `timeout`.
 */
export async function applyApprovalTimeouts(ctx: OperationContext, nowMs: number = Date.now(), fallback = DEFAULT_APPROVAL_POLICY): Promise<TimeoutOutcome[]> {
  const { approvals } = approvalStores(ctx.services);
  const outcomes: TimeoutOutcome[] = [];
  for (const approval of approvals.openSince(nowMs)) {
    const policy = approvals.policyFor(approval.taskId, fallback);
    const age = nowMs - Date.parse(approval.createdAt);
    try {
      const outcome = await applyOne(ctx, approval, policy, age);
      if (outcome) outcomes.push({ approvalId: approval.id, taskId: approval.taskId, outcome });
    } catch (error) {
      // Answered by a person meanwhile: the person's answer stands.
      if (SvcError.isInstance(error) && error.code === 'approval_answered') continue;
      ctx.services.logger.warn('an approval timeout could not be applied', { approvalId: approval.id, code: SvcError.isInstance(error) ? error.code : 'internal' });
    }
  }
  return outcomes;
}

async function applyOne(ctx: OperationContext, approval: Approval, policy: ApprovalPolicy, age: number): Promise<TimeoutOutcome['outcome'] | undefined> {
  if (age >= policy.stopAfterMs || (age >= policy.afterMs && policy.action === 'stop')) {
    await stopTask(ctx, approval, age);
    return 'stopped';
  }
  if (age < policy.afterMs) return undefined;
  const noAnswer = `nobody answered within ${minutes(policy.afterMs)}`;
  switch (policy.action) {
    case 'deny':
      await applyApprovalAnswer(ctx, approval.id, { answer: 'timeout_deny', reason: `${noAnswer}; the task's approval policy denies it`, by: 'timeout', via: 'policy' });
      return 'denied';
    case 'allow_listed': {
      const listed = policy.allowedTools.includes(approval.toolName);
      await applyApprovalAnswer(ctx, approval.id, {
        answer: listed ? 'timeout_allow' : 'timeout_deny',
        reason: listed ? null : `${noAnswer}, and the task's approval policy allows only ${policy.allowedTools.join(', ') || 'no tool'} then`,
        by: 'timeout',
        via: 'policy',
      });
      return listed ? 'allowed' : 'denied';
    }
    case 'escalate':
      if (!approvals(ctx).markEscalated(approval.id)) return undefined;
      escalate(ctx, approval, noAnswer);
      return 'escalated';
  }
}

const approvals = (ctx: OperationContext) => approvalStores(ctx.services).approvals;

/** The parent task is told (its notification center; it may answer with answer_approval); a task without one keeps waiting for a person. */
function escalate(ctx: OperationContext, approval: Approval, noAnswer: string): void {
  const parentId = ctx.services.domain.tasks.get(approval.taskId).parentTaskId;
  if (parentId === null) return;
  const { messages } = harnessStores(ctx.services);
  messages.registerNotify(
    messages.ownerOf(parentId),
    `Task ${approval.taskId} waits for approval #${approval.id} (${noAnswer}); answer it with answer_approval:\n${approval.shown}`,
  );
}

async function stopTask(ctx: OperationContext, approval: Approval, age: number): Promise<void> {
  const { approvals: store, events } = approvalStores(ctx.services);
  const answered = store.answer(approval.id, { answer: 'timeout_stop', reason: `nobody answered within ${minutes(age)}: the task is stopped`, by: 'timeout', via: 'policy' });
  if (!answered) throw new SvcError({ code: 'approval_answered', message: `approval #${approval.id} was already answered` });
  events.emit('answered', approval.id);
  // The task ends: nothing is typed into it.
  if (answered.delivery === 'delivering') store.recordDelivery(approval.id, 'skipped');
  const terminal = ctx.terminals?.summary(approval.taskId);
  if (terminal && terminal.state !== 'ENDED') await ctx.terminals!.stop(approval.taskId);
}
