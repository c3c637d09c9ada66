// `svc harness`: the notification center on the command line, over the harness's operations.
import { type CliCommand, positiveId, printJson, printTable, singlePositional, terminalLine, UsageError } from '@svc-org/host/adapters/cli';
import { DISPLAY_STATUSES, getHarnessMessage, type HarnessMessage, listHarnessMessages, replyToAsk, resendHarnessMessage } from '../messaging/index.js';
import { sendDueMessages } from '../outbox/index.js';
import { withPlugins } from './with-plugins.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const HARNESS_COMMANDS: CliCommand[] = withPlugins([
  {
    group: 'harness',
    name: 'list',
    operation: listHarnessMessages,
    options: {
      workspace: { type: 'string', value: '<id>', description: 'only this workspace' },
      project: { type: 'string', value: '<id>', description: 'only this project' },
      task: { type: 'string', value: '<id>', description: 'only this task' },
      status: { type: 'string', value: '<status>', description: `only this status: ${DISPLAY_STATUSES.join(', ')}` },
      limit: { type: 'string', value: '<n>', description: 'at most n messages (default 50)' },
      before: { type: 'string', value: '<id>', description: 'the page before this message id' },
    },
    json: true,
    examples: ['svc harness list --status OPEN', 'svc harness list --task 7 --json'],
    async run(run) {
      const page = await run.invoke(listHarnessMessages, {
        workspaceId: text(run.values.workspace),
        projectId: text(run.values.project),
        taskId: text(run.values.task),
        status: text(run.values.status) as HarnessMessage['status'] | undefined,
        limit: text(run.values.limit),
        before: text(run.values.before),
      });
      if (run.json) {
        printJson(run.io, page);
        return 0;
      }
      if (page.items.length === 0) run.io.stdout.write('no messages\n');
      else
        printTable(
          run.io,
          ['ID', 'TASK', 'KIND', 'STATUS', 'SENT', 'MESSAGE', 'REPLY', 'ACTIONS'],
          page.items.map((m) => [
            String(m.id),
            String(m.ownership.taskId ?? '-'),
            m.kind,
            m.status,
            m.sentAt ?? m.createdAt,
            oneLine(m.body, 40),
            m.ask?.reply ? oneLine(m.ask.reply, 30) : '-',
            m.actions.join(','),
          ]),
          run.style,
        );
      if (page.nextBefore !== null) run.io.stdout.write(`more: svc harness list --before ${page.nextBefore}\n`);
      return 0;
    },
  },
  {
    group: 'harness',
    name: 'show',
    operation: getHarnessMessage,
    positionals: '<message id>',
    options: {},
    json: true,
    examples: ['svc harness show 12'],
    async run(run) {
      const message = await run.invoke(getHarnessMessage, { id: positiveId(singlePositional(run, this, 'message id'), 'message id') });
      if (run.json) printJson(run.io, message);
      else run.io.stdout.write(describe(message));
      return 0;
    },
  },
  {
    group: 'harness',
    name: 'reply',
    operation: replyToAsk,
    positionals: '<message id> <text>',
    options: {},
    json: true,
    examples: ['svc harness reply 12 keep the old column for one release'],
    async run(run) {
      const [id, ...words] = run.positionals;
      if (!id || words.length === 0) throw new UsageError('say which message and what to answer\nusage: svc harness reply <message id> <text>');
      const result = await run.invoke(replyToAsk, { messageId: positiveId(id, 'message id'), reply: words.join(' '), via: 'cli' });
      if (run.json) printJson(run.io, result);
      else run.io.stdout.write(`replied: task ${result.taskId} ${result.result} (${terminalLine(result.note)})\n`);
      return 0;
    },
  },
  {
    group: 'harness',
    name: 'resend',
    operation: resendHarnessMessage,
    positionals: '<message id>',
    options: {},
    json: true,
    examples: ['svc harness resend 12'],
    async run(run) {
      const message = await run.invoke(resendHarnessMessage, { id: positiveId(singlePositional(run, this, 'message id'), 'message id') });
      if (run.json) printJson(run.io, message);
      else run.io.stdout.write(`message ${message.id} queued again (${message.deliveryStatus}); the running service sends it\n`);
      return 0;
    },
  },
  {
    group: 'harness',
    name: 'drain',
    operation: sendDueMessages,
    options: {},
    json: true,
    examples: ['svc harness drain'],
    async run(run) {
      const result = await run.invoke(sendDueMessages, {});
      if (run.json) printJson(run.io, result);
      else run.io.stdout.write(`attempted ${result.attempted} outbox entr${result.attempted === 1 ? 'y' : 'ies'}${result.recovered ? `; ${result.recovered} left mid-send are now SENT_UNVERIFIED` : ''}\n`);
      return 0;
    },
  },
]);

function oneLine(value: string, max: number): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function describe(m: HarnessMessage): string {
  const lines = [
    `message   ${m.id} (${m.kind})`,
    `task      ${m.ownership.taskId ?? '-'} (project ${m.ownership.projectId ?? '-'}, workspace ${m.ownership.workspaceId ?? '-'})`,
    `status    ${m.status}${m.status !== m.deliveryStatus ? ` (delivery ${m.deliveryStatus})` : ''}`,
    `created   ${m.createdAt}`,
    `sent      ${m.sentAt ?? '-'}${m.target.channel ? ` via ${m.target.channel} to ${m.target.to}${m.target.threadId ? `:${m.target.threadId}` : ''}` : ''}`,
  ];
  if (m.delivery) lines.push(`platform  ${m.delivery.platform ?? '-'} message ${m.delivery.platformMessageId}`);
  if (m.outbound?.lastError) lines.push(`error     ${m.outbound.lastError.code}: ${m.outbound.lastError.message}`);
  if (m.outbound?.nextAttemptAt) lines.push(`retry at  ${m.outbound.nextAttemptAt} (attempt ${m.outbound.attempts + 1})`);
  lines.push('', m.body, '');
  if (m.ask?.reply) lines.push(`reply (${m.ask.repliedAt}, via ${m.ask.repliedVia ?? '-'}${m.ask.resumeOutcome ? `, ${m.ask.resumeOutcome}` : ''}):`, m.ask.reply, '');
  lines.push(`actions   ${m.actions.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
