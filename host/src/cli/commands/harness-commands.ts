// The harness's commands (notification center, gateways, channels). Each parses its own arguments;
// these entries give them a place in `svc --help`, a `--help` of their own, and "did you mean".
import type { CliCommand, CliRun } from '../cli-command.js';

const raw = (group: 'harness' | 'gateway' | 'channel', name: string, description: string, usage: string, example: string): CliCommand => ({
  group,
  name,
  description,
  positionals: usage,
  options: {},
  raw: true,
  examples: [example],
  async run(run: CliRun) {
    if (group === 'harness') {
      const { harnessCommand } = await import('./harness-command.js');
      return harnessCommand([name, ...run.args], run.io, run.open, run.signal);
    }
    const { gatewayCommand } = await import('./gateway-command.js');
    return gatewayCommand(group, [name, ...run.args], run.io, run.open, run.signal);
  },
});

export const HARNESS_COMMANDS: CliCommand[] = [
  raw('harness', 'list', 'The notification center: messages to a person and their replies, newest first.', '[--workspace <id>] [--project <id>] [--task <id>] [--status <S>] [--limit <n>] [--before <id>] [--json]', 'svc harness list --status OPEN'),
  raw('harness', 'show', 'One message with its delivery and reply.', '<message id> [--json]', 'svc harness show 12 --json'),
  raw('harness', 'reply', "Answer a task's OPEN question; the reply is typed into its terminal (needs `svc serve`).", '<message id> <text>', 'svc harness reply 12 use postgres'),
  raw('harness', 'resend', 'Send a SENT_UNVERIFIED or FAILED message again (it may arrive twice).', '<message id>', 'svc harness resend 12'),
  raw('harness', 'drain', 'Send every due outbox entry from this process now.', '', 'svc harness drain'),
  raw('gateway', 'add', 'Add an external gateway: openclaw (URL and token) or hermes (its command).', '<name> --kind openclaw --url <ws://…> [--token-env <VAR> | --token-stdin] | <name> --kind hermes [--command <path>]', 'svc gateway add home --kind openclaw --url ws://127.0.0.1:18789 --token-env OPENCLAW_TOKEN'),
  raw('gateway', 'list', 'The configured gateways (tokens are never shown).', '[--json]', 'svc gateway list --json'),
  raw('gateway', 'show', 'One gateway.', '<name> [--json]', 'svc gateway show home'),
  raw('gateway', 'remove', 'Remove a gateway no channel uses.', '<name>', 'svc gateway remove home'),
  raw('gateway', 'health', 'Connect to a gateway without sending anything.', '<name>', 'svc gateway health home'),
  raw('channel', 'add', 'Add a channel: platform, owner/home target, owner identity, trusted groups, targets, scope.', '<name> --gateway <name> --platform <p> --to <chat> [--thread <id>] [--owner <id>] [--trusted-group <chat>]... [--target <name>=<chat>[:<thread>]]... [--workspace <id|name> | --project <id|name>] [--inactive]', 'svc channel add owner --gateway home --platform telegram --to 4242 --owner 4242'),
  raw('channel', 'list', 'The configured channels.', '[--json]', 'svc channel list --json'),
  raw('channel', 'enable', 'Activate a channel.', '<name>', 'svc channel enable owner'),
  raw('channel', 'disable', 'Deactivate a channel.', '<name>', 'svc channel disable owner'),
  raw('channel', 'remove', 'Remove a channel.', '<name>', 'svc channel remove owner'),
];
