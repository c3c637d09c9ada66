// `svc harness`: the notification center on the command line, over the harness operations.
import { resolveSvcHome } from '../../config/index.js';
import type { HostServices } from '../../host-services.js';
import { ServiceClient } from '../../server/service-client.js';
import {
  DISPLAY_STATUSES,
  getHarnessMessage,
  listHarnessMessages,
  resendHarnessMessage,
  runOperation,
  type HarnessMessage,
} from '../../../../harness/src/messaging/index.js';
import { startHarness } from '../../../../harness/src/outbox/index.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';

export const HARNESS_USAGE = `svc harness list [--workspace <id>] [--project <id>] [--task <id>] [--status <S>] [--limit <n>] [--before <id>] [--json]
svc harness show <message id> [--json]
svc harness reply <message id> <text>     answers the OPEN question and resumes its task (needs \`svc serve\`)
svc harness resend <message id>           sends a SENT_UNVERIFIED or FAILED message again (it may arrive twice)
svc harness drain                         sends every due outbox entry from this process now
  statuses: ${DISPLAY_STATUSES.join(', ')}`;

type Open = () => Promise<HostServices>;

export async function harnessCommand(args: string[], io: CliIo, open: Open, signal: AbortSignal): Promise<number> {
  const [sub, ...rest] = args;
  const call = async (operation: Parameters<typeof runOperation>[0], input: unknown) =>
    runOperation(operation, input, { services: await open(), caller: { via: 'cli' }, signal });
  switch (sub) {
    case 'list': {
      const { values } = parseCommandArgs(
        rest,
        {
          workspace: { type: 'string' },
          project: { type: 'string' },
          task: { type: 'string' },
          status: { type: 'string' },
          limit: { type: 'string' },
          before: { type: 'string' },
          json: { type: 'boolean' },
        },
        HARNESS_USAGE,
      );
      const page = (await call(listHarnessMessages, {
        workspaceId: values.workspace,
        projectId: values.project,
        taskId: values.task,
        status: values.status,
        limit: values.limit,
        before: values.before,
      })) as { items: HarnessMessage[]; nextBefore: number | null };
      if (values.json) {
        io.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
        return 0;
      }
      if (page.items.length === 0) io.stdout.write('no messages\n');
      else
        printTable(
          io,
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
        );
      if (page.nextBefore !== null) io.stdout.write(`more: svc harness list --before ${page.nextBefore}\n`);
      return 0;
    }
    case 'show': {
      const { values, positionals } = parseCommandArgs(rest, { json: { type: 'boolean' } }, HARNESS_USAGE);
      const m = (await call(getHarnessMessage, { id: single(positionals) })) as HarnessMessage;
      if (values.json) io.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
      else io.stdout.write(describe(m));
      return 0;
    }
    case 'reply': {
      const { positionals } = parseCommandArgs(rest, {}, HARNESS_USAGE);
      const [id, ...words] = positionals;
      if (!id || !/^\d+$/.test(id) || words.length === 0) throw new UsageError(`say which message and what to answer\nusage:\n${HARNESS_USAGE}`);
      const client = ServiceClient.connect(resolveSvcHome(io.env));
      const result = await client.request<{ taskId: number; result: string; note: string }>('POST', '/api/internal/harness/reply', {
        messageId: Number(id),
        reply: words.join(' '),
        via: 'cli',
      });
      io.stdout.write(`replied: task ${result.taskId} ${result.result} (${result.note})\n`);
      return 0;
    }
    case 'resend': {
      const { positionals } = parseCommandArgs(rest, {}, HARNESS_USAGE);
      const m = (await call(resendHarnessMessage, { id: single(positionals) })) as HarnessMessage;
      io.stdout.write(`message ${m.id} queued again (${m.deliveryStatus}); the running service sends it\n`);
      return 0;
    }
    case 'drain': {
      parseCommandArgs(rest, {}, HARNESS_USAGE);
      const harness = startHarness({ services: await open(), env: io.env, startWorker: false });
      try {
        harness.worker.recoverAbandoned();
        const attempted = await harness.worker.drain();
        io.stdout.write(`attempted ${attempted} outbox entr${attempted === 1 ? 'y' : 'ies'}\n`);
      } finally {
        await harness.stop();
      }
      return 0;
    }
    default:
      throw new UsageError(`usage:\n${HARNESS_USAGE}`);
  }
}

function single(positionals: string[]): string {
  if (positionals.length !== 1 || !/^\d+$/.test(positionals[0]!)) throw new UsageError(`give one message id\nusage:\n${HARNESS_USAGE}`);
  return positionals[0]!;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
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
