// `svc task approvals`, `svc task approve`, `svc task approval-policy`: the permission requests of a
// task's CLI on the command line, over the harness's approval operations.
import { type CliCommand, positiveId, printJson, printTable, singlePositional, terminalLine, terminalText, UsageError } from '@svc-org/host/adapters/cli';
import { answerApproval, type Approval, APPROVAL_TIMEOUT_ACTIONS, listApprovals, setApprovalPolicy } from '../approvals/index.js';
import { withPlugins } from './with-plugins.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The answers as a person types them. */
const ANSWER_WORDS: Record<string, 'allow_once' | 'allow_for_task' | 'deny'> = { once: 'allow_once', allow: 'allow_once', task: 'allow_for_task', always: 'allow_for_task', deny: 'deny' };

function answerLine(approval: Approval): string {
  if (approval.status === 'OPEN') return approval.parked ? 'waiting (the CLI was told to wait)' : 'waiting';
  const what = approval.answer?.replace(/_/g, ' ') ?? approval.status.toLowerCase();
  return `${what} by ${approval.answeredBy ?? '?'} via ${approval.answeredVia ?? '?'} at ${approval.answeredAt ?? '?'}${approval.reason ? `: ${approval.reason}` : ''}`;
}

export const APPROVAL_COMMANDS: CliCommand[] = withPlugins([
  {
    group: 'task',
    name: 'approvals',
    operation: listApprovals,
    description: "A task's permission requests (what its CLI asked to do), each with its answer, who gave it, from where and when, and the task's counts.",
    positionals: '<task id>',
    options: { open: { type: 'boolean', description: 'only the requests still waiting' } },
    json: true,
    examples: ['svc task approvals 7', 'svc task approvals 7 --open --json'],
    async run(run) {
      const taskId = positiveId(singlePositional(run, this, 'task id'), 'task id');
      const page = await run.invoke(listApprovals, { taskId, ...(run.values.open ? { status: 'OPEN' as const } : {}) });
      if (run.json) {
        printJson(run.io, page);
        return 0;
      }
      const counts = page.counts!;
      run.io.stdout.write(`task ${taskId}: ${counts.total} request${counts.total === 1 ? '' : 's'}, ${counts.open} waiting, ${counts.allowed} allowed, ${counts.denied} denied\n`);
      if (page.items.length > 0) {
        printTable(
          run.io,
          ['ID', 'ASKED', 'CLI', 'TOOL', 'CALL', 'ANSWER'],
          page.items.map((a) => [String(a.id), a.createdAt, a.cli, a.toolName, a.shown.split('\n')[1] ?? a.shown, answerLine(a)]),
          run.style,
        );
      }
      return 0;
    },
  },
  {
    group: 'task',
    name: 'approve',
    operation: answerApproval,
    description: "Answer a permission request of a task's CLI: once (this call), task (this exact call for the rest of the task) or deny with a reason the agent reads. The first answer wins.",
    positionals: '<approval id> <once|task|deny> [reason…]',
    options: {},
    json: true,
    examples: ['svc task approve 12 once', 'svc task approve 12 task', 'svc task approve 12 deny use the staging database instead'],
    async run(run) {
      const [id, word, ...reason] = run.positionals;
      const answer = word === undefined ? undefined : ANSWER_WORDS[word.toLowerCase()];
      if (!id || !answer) throw new UsageError('say which request and the answer: once (this call), task (this call for the rest of the task) or deny\nusage: svc task approve <approval id> <once|task|deny> [reason…]');
      const approval = await run.invoke(answerApproval, { approvalId: positiveId(id, 'approval id'), answer, via: 'cli', ...(reason.length ? { reason: reason.join(' ') } : {}) });
      if (run.json) printJson(run.io, approval);
      else run.io.stdout.write(`approval #${approval.id} (task ${approval.taskId}): ${terminalLine(answerLine(approval))}\n`);
      return 0;
    },
  },
  {
    group: 'task',
    name: 'approval-policy',
    operation: setApprovalPolicy,
    description: 'What a permission request nobody answers becomes, for a task or a project: denied, allowed for listed tools, escalated to the parent task or the task stopped; and after how long the task stops anyway.',
    options: {
      task: { type: 'string', value: '<id>', description: 'the task the policy is for' },
      project: { type: 'string', value: '<id>', description: 'or every task of this project without its own' },
      action: { type: 'string', value: '<action>', description: `what an unanswered request becomes: ${APPROVAL_TIMEOUT_ACTIONS.join(', ')}` },
      after: { type: 'string', value: '<minutes>', description: 'how long a request waits first (default 10)' },
      'stop-after': { type: 'string', value: '<hours>', description: 'after this long any request stops the task (default 24)' },
      allow: { type: 'string', value: '<tools>', description: 'for allow_listed: the tools allowed then, comma-separated' },
    },
    json: true,
    examples: ['svc task approval-policy --project 2 --action deny --after 30', 'svc task approval-policy --task 7 --action allow_listed --allow Read,Grep'],
    async run(run) {
      const action = text(run.values.action);
      if (!action) throw new UsageError(`say what an unanswered request becomes (--action ${APPROVAL_TIMEOUT_ACTIONS.join('|')})`);
      const policy = await run.invoke(setApprovalPolicy, {
        taskId: text(run.values.task),
        projectId: text(run.values.project),
        action,
        afterMinutes: text(run.values.after),
        stopAfterHours: text(run.values['stop-after']),
        allowedTools: text(run.values.allow)?.split(',').map((tool) => tool.trim()).filter(Boolean),
      } as never);
      if (run.json) printJson(run.io, policy);
      else run.io.stdout.write(terminalText(`${policy.scope} ${policy.scopeId}: after ${policy.afterMs / 60_000} minutes ${policy.action}; stop after ${policy.stopAfterMs / 3_600_000} hours\n`));
      return 0;
    },
  },
]);
