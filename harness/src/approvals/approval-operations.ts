import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation, type RecordResolver, IdSchema } from '@svc-org/host/operation-framework';
import { harnessStores } from '../messaging/harness-stores.js';
import { AnswerSenderFields, CHAT_TEXT_LIMIT } from '../operations/harness-schemas.js';
import { chatOwnerOf } from '../routing/sender-policy.js';
import { APPROVAL_ANSWERS, APPROVAL_STATUSES, APPROVAL_TIMEOUT_ACTIONS, ApprovalSchema, type Approval } from './approval-record.js';
import { applyApprovalAnswer, relayApproval } from './approval-answers.js';
import { approvalStores } from './approval-stores.js';
import { callHash, describeCall } from './call-hash.js';
import { DEFAULT_APPROVAL_POLICY } from './approval-timeouts.js';

/** The task an approval request belongs to. */
const APPROVAL_RECORD: RecordResolver = (services, id) => {
  const taskId = approvalStores(services).approvals.taskOf(Number(id));
  return taskId === undefined ? undefined : { taskId };
};

export const parkedReason = (id: number) =>
  `Waiting for approval #${id}: a person has been asked to allow this exact call. End your turn now and do not retry it; ` +
  'the answer arrives as your next message, and when it allows the call, make exactly the same call again.';

const DecisionSchema = z.object({
  approvalId: z.number().int(),
  /** allow: the CLI runs the call; deny: it does not, and `reason` is what the model reads. */
  decision: z.enum(['allow', 'deny']),
  reason: z.string().nullable(),
  /** The hook stopped waiting: the request stays open and its outcome is typed into the terminal later. */
  parked: z.boolean(),
});

/**
 * Called by a task terminal's permission hook (harness/hooks/approval-hook.cjs): the CLI wants to
 * make a call that needs a person's approval. The request is recorded before anyone is asked, then
 * answered by a rule, by a person within `waitMs`, or parked.
 */
export const requestApproval = defineOperation({
  name: 'request_approval',
  group: 'hooks',
  mcp: false,
  description: "Record a CLI's permission request for one exact call and wait for its answer (internal: called by a task terminal's permission hook).",
  readOnly: false,
  runsIn: 'service',
  input: z
    .object({
      taskId: IdSchema,
      executionId: IdSchema.optional(),
      /** The CLI that asks, for the record; the execution's provider otherwise. */
      cli: z.string().min(1).max(80).optional(),
      toolName: z.string().min(1).max(200),
      toolInput: z.unknown(),
      cwd: z.string().max(4096).nullable().default(null),
      /** How long the hook can wait before the CLI's own hook timeout; 0 parks at once. */
      waitMs: z.number().int().min(0).max(3_600_000).default(0),
    })
    .strict(),
  output: DecisionSchema,
  http: { method: 'POST', path: '/api/internal/hooks/approval' },
  async handler(input, ctx) {
    const { approvals, events } = approvalStores(ctx.services);
    ctx.services.domain.tasks.get(input.taskId);
    const execution = input.executionId === undefined ? undefined : ctx.services.domain.executions.get(input.executionId);
    const hash = callHash(input.toolName, input.toolInput, input.cwd);
    const record = {
      taskId: input.taskId,
      executionId: input.executionId ?? null,
      cli: input.cli ?? execution?.providerId ?? 'unknown',
      toolName: input.toolName,
      callHash: hash,
      cwd: input.cwd,
      shown: describeCall(input.toolName, input.toolInput, input.cwd),
    };
    if (approvals.hasRule(input.taskId, hash)) return decisionOf(approvals.recordRuleMatch(record), false);
    const spent = approvals.spendParkedAllow(input.taskId, hash);
    if (spent) return decisionOf(spent, false);
    const { approval, created } = approvals.open(record);
    if (created) {
      try {
        relayApproval(ctx, approval);
      } catch (error) {
        ctx.services.logger.warn('an approval request could not be relayed to its channel', { approvalId: approval.id, code: SvcError.isInstance(error) ? error.code : 'internal' });
      }
    }
    const answered = await waitForAnswer(approval.id, input.waitMs, () => approvals.get(approval.id), events, ctx.signal);
    if (answered.status !== 'OPEN') {
      if (answered.parked) approvals.spendParkedAllow(input.taskId, hash);
      return decisionOf(answered, false);
    }
    if (approvals.park(approval.id)) return { approvalId: approval.id, decision: 'deny' as const, reason: parkedReason(approval.id), parked: true };
    return decisionOf(approvals.get(approval.id), false);
  },
});

function decisionOf(approval: Approval, parked: boolean): z.infer<typeof DecisionSchema> {
  return approval.status === 'ALLOWED'
    ? { approvalId: approval.id, decision: 'allow', reason: null, parked }
    : { approvalId: approval.id, decision: 'deny', reason: `Denied by ${approval.answeredBy ?? 'a person'}: ${approval.reason ?? 'no reason given'}`, parked };
}

/** Resolves when the request is answered (woken by this process's answers, or seen by a poll of the database) or after `waitMs`. */
async function waitForAnswer(id: number, waitMs: number, read: () => Approval, events: import('node:events').EventEmitter, signal: AbortSignal): Promise<Approval> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const current = read();
    const left = deadline - Date.now();
    if (current.status !== 'OPEN' || left <= 0 || signal.aborted) return current;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        events.off('answered', onAnswer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const onAnswer = (answeredId: number) => answeredId === id && done();
      const timer = setTimeout(done, Math.min(left, 1000));
      events.on('answered', onAnswer);
      signal.addEventListener('abort', done);
    });
  }
}

export const answerApproval = defineOperation({
  name: 'answer_approval',
  group: 'messaging',
  // A chat reply to an open ask or a relayed permission request: the gateway answers it for its sender, who must be the owner.
  mcp: { alsoIn: ['gateway'], senderOnlyIn: ['gateway'] },
  description:
    "Answer a task CLI's OPEN permission request: allow_once (this one call), deny (with a reason the agent reads) or allow_for_task (this exact call, now and whenever the task makes it again). " +
    'The first answer wins; a later one fails with approval_answered, naming who answered.',
  readOnly: false,
  runsIn: 'service',
  reach: { names: { approvalId: APPROVAL_RECORD } },
  input: z
    .object({
      approvalId: IdSchema,
      answer: z.enum(APPROVAL_ANSWERS).optional(),
      /** Or a chat reply as a person typed it: `allow`, `allow for task`, `deny <reason>`. */
      reply: z.string().trim().min(1).max(CHAT_TEXT_LIMIT).optional(),
      /** For deny: what the agent is told. */
      reason: z.string().trim().min(1).max(2000).optional(),
      ...AnswerSenderFields,
    })
    .strict(),
  output: ApprovalSchema,
  http: { method: 'POST', path: '/api/approvals/answer' },
  async handler(input, ctx) {
    const taskId = approvalStores(ctx.services).approvals.taskOf(input.approvalId);
    if (taskId !== undefined && ctx.caller.taskId === taskId) {
      throw new SvcError({
        code: 'approval_own_task',
        message: `approval #${input.approvalId} is this task's own request: a person or the parent task answers it`,
        details: { id: input.approvalId, fix: 'end your turn and wait; the answer arrives as your next message' },
      });
    }
    const owner = chatOwnerOf(harnessStores(ctx.services).channels, input, 'answer_approval');
    const sender = owner ? `the owner (${owner.platform} ${owner.senderId})` : undefined;
    const given = input.answer !== undefined ? { answer: input.answer, reason: input.reason } : input.reply !== undefined ? parseReply(input.approvalId, input.reply) : undefined;
    if (!given) throw new SvcError({ code: 'invalid_request', message: 'say the answer: allow_once, allow_for_task or deny', details: { fix: 'pass answer (or a chat reply)' } });
    const via = input.via ?? (sender ? 'gateway' : ctx.caller.via);
    const by = sender ?? (ctx.caller.taskId !== undefined ? `task ${ctx.caller.taskId}` : via === 'cli' || via === 'terminal' ? 'the person at the terminal' : 'a person');
    return applyApprovalAnswer(ctx, input.approvalId, {
      answer: given.answer,
      reason: given.answer === 'deny' ? (given.reason ?? 'denied without a reason') : (given.reason ?? null),
      by,
      via,
    });
  },
});

/** A chat reply as an answer: `allow` (`yes`, `ok`, `once`), `allow for task` (`always`), `deny <reason>` (`no …`). */
export function parseReply(id: number, reply: string): { answer: (typeof APPROVAL_ANSWERS)[number]; reason?: string } {
  const text = reply.replace(/\s*\[\[svc:task=\d+\]\]\s*/g, ' ').trim();
  if (/^(allow|approve)?\s*(for\s+(this\s+|the\s+)?task|always)[.!]?$/i.test(text)) return { answer: 'allow_for_task' };
  if (/^(allow|approve|yes|ok|once)(\s+once)?[.!]?$/i.test(text)) return { answer: 'allow_once' };
  const deny = /^(deny|no)\b[\s:,.-]*([\s\S]*)$/i.exec(text);
  if (deny) return { answer: 'deny', ...(deny[2]!.trim() ? { reason: deny[2]!.trim() } : {}) };
  throw new SvcError({
    code: 'invalid_request',
    message: `answer approval #${id} with: allow, allow for task, or deny <reason>`,
    details: { id, fix: 'reply allow, allow for task, or deny followed by the reason' },
  });
}

const CountsSchema = z.object({ total: z.number().int(), open: z.number().int(), allowed: z.number().int(), denied: z.number().int() });

export const listApprovals = defineOperation({
  name: 'list_approvals',
  group: 'messaging',
  description:
    "Permission requests of tasks' CLIs: with taskId, every request of that task (newest first) with its answer, who gave it, from where and when, and the task's counts; without, every OPEN request.",
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: z.coerce.number().int().positive().optional(),
      status: z.enum(APPROVAL_STATUSES).optional(),
      limit: z.coerce.number().int().min(1).max(500).default(100),
    })
    .strict(),
  output: z.object({ items: z.array(ApprovalSchema), counts: CountsSchema.nullable(), policy: z.unknown().nullable() }),
  http: { method: 'GET', path: '/api/approvals' },
  handler(input, ctx) {
    const { approvals } = approvalStores(ctx.services);
    if (input.taskId === undefined) {
      if (ctx.caller.taskId !== undefined) throw new SvcError({ code: 'invalid_request', message: 'say which task (taskId): a task lists its own requests or those of tasks below it' });
      return { items: approvals.listOpen(input.limit).filter((a) => !input.status || a.status === input.status), counts: null, policy: null };
    }
    ctx.services.domain.tasks.get(input.taskId);
    const items = approvals.listForTask(input.taskId, input.limit).filter((a) => !input.status || a.status === input.status);
    return { items, counts: approvals.counts(input.taskId), policy: approvals.policyFor(input.taskId, DEFAULT_APPROVAL_POLICY) };
  },
});

export const setApprovalPolicy = defineOperation({
  name: 'set_approval_policy',
  group: 'messaging',
  // A person's: a task never sets what its own unanswered requests become.
  mcp: { notIn: ['task'] },
  description:
    'What happens to a permission request nobody answers, for one task or a whole project (a task\'s own wins): after afterMinutes, deny it, allow it when its tool is allow-listed (deny otherwise), escalate it to the parent task, or stop the task; after stopAfterHours any request stops the task.',
  readOnly: false,
  runsIn: 'any',
  reach: { names: { taskId: 'task', projectId: 'project' } },
  input: z
    .object({
      taskId: z.coerce.number().int().positive().optional(),
      projectId: z.coerce.number().int().positive().optional(),
      action: z.enum(APPROVAL_TIMEOUT_ACTIONS),
      afterMinutes: z.coerce.number().positive().max(100_000).default(DEFAULT_APPROVAL_POLICY.afterMs / 60_000),
      stopAfterHours: z.coerce.number().positive().max(10_000).default(DEFAULT_APPROVAL_POLICY.stopAfterMs / 3_600_000),
      /** For allow_listed: the tool names allowed when nobody answers. */
      allowedTools: z.array(z.string().min(1).max(200)).max(100).default([]),
    })
    .strict(),
  output: z.object({ scope: z.enum(['task', 'project']), scopeId: z.number().int(), action: z.enum(APPROVAL_TIMEOUT_ACTIONS), afterMs: z.number(), stopAfterMs: z.number(), allowedTools: z.array(z.string()) }),
  http: { method: 'PUT', path: '/api/approvals/policy' },
  handler(input, ctx) {
    if (ctx.caller.taskId !== undefined) {
      throw new SvcError({ code: 'approval_own_task', message: 'an approval policy is set by a person, not by a task', details: { fix: 'ask a person to set it (svc task approval-policy)' } });
    }
    if ((input.taskId === undefined) === (input.projectId === undefined)) {
      throw new SvcError({ code: 'invalid_request', message: 'name one task or one project the policy is for', details: { fix: 'pass --task <id> or --project <id>' } });
    }
    const scope = input.taskId !== undefined ? ('task' as const) : ('project' as const);
    const scopeId = (input.taskId ?? input.projectId)!;
    if (scope === 'task') ctx.services.domain.tasks.get(scopeId);
    else ctx.services.domain.projects.get(scopeId);
    const policy = { action: input.action, afterMs: Math.round(input.afterMinutes * 60_000), stopAfterMs: Math.round(input.stopAfterHours * 3_600_000), allowedTools: input.allowedTools };
    approvalStores(ctx.services).approvals.setPolicy(scope, scopeId, policy);
    return { scope, scopeId, ...policy };
  },
});
