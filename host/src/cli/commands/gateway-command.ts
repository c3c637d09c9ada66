// `svc gateway` and `svc channel`: where harness messages go. Tokens are read from an environment
// variable or stdin, never from the command line (other users can read a process's arguments).
import { readFileSync } from 'node:fs';
import type { HostServices } from '../../host-services.js';
import {
  checkGatewayHealth,
  createChannel,
  createGateway,
  deleteChannel,
  deleteGateway,
  getGateway,
  listChannels,
  listGateways,
  updateChannel,
  type ChannelRecord,
  type GatewayRecord,
} from '../../../../harness/src/gateways/index.js';
import { runOperation } from '../../../../harness/src/messaging/index.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';

export const GATEWAY_USAGE = `svc gateway add <name> --kind openclaw --url <ws://…> [--token-env <VAR> | --token-stdin]
svc gateway add <name> --kind hermes [--command <path to hermes>]
svc gateway list [--json] | show <name> [--json] | remove <name> | health <name>
svc channel add <name> --gateway <name> --platform <p> --to <chat> [--thread <id>] [--owner <id>] [--trusted-group <chat>]... [--target <name>=<chat>[:<thread>]]... [--workspace <id|name> | --project <id|name>] [--inactive]
svc channel list [--json] | enable <name> | disable <name> | remove <name>
  (a chat id that starts with "-", as Telegram groups do, is given as --to=-100…)`;

type Open = () => Promise<HostServices>;

export async function gatewayCommand(group: 'gateway' | 'channel', args: string[], io: CliIo, open: Open, signal: AbortSignal): Promise<number> {
  const [sub, ...rest] = args;
  const call = async (operation: Parameters<typeof runOperation>[0], input: unknown) =>
    runOperation(operation, input, { services: await open(), caller: { via: 'cli' }, signal });
  const json = (value: unknown) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  if (group === 'gateway') {
    switch (sub) {
      case 'add': {
        const { values, positionals } = parseCommandArgs(
          rest,
          { kind: { type: 'string' }, url: { type: 'string' }, command: { type: 'string' }, 'token-env': { type: 'string' }, 'token-stdin': { type: 'boolean' } },
          GATEWAY_USAGE,
        );
        let token: string | undefined;
        if (values['token-env']) {
          token = io.env[values['token-env']];
          if (!token) throw new UsageError(`environment variable ${values['token-env']} is empty or unset`);
        } else if (values['token-stdin']) token = readFileSync(0, 'utf8').trim();
        const gateway = (await call(createGateway, { name: one(positionals), kind: values.kind, url: values.url, command: values.command, token })) as GatewayRecord;
        io.stdout.write(`gateway ${gateway.name} added (${gateway.kind}${gateway.tokenSet ? ', token set' : ''})\n`);
        return 0;
      }
      case 'list': {
        const { values } = parseCommandArgs(rest, { json: { type: 'boolean' } }, GATEWAY_USAGE);
        const { items } = (await call(listGateways, {})) as { items: GatewayRecord[] };
        if (values.json) json(items);
        else if (items.length === 0) io.stdout.write('no gateways (add one with `svc gateway add <name> --kind openclaw|hermes`)\n');
        else printTable(io, ['NAME', 'KIND', 'ADDRESS', 'TOKEN', 'ACTIVE'], items.map((g) => [g.name, g.kind, g.url ?? g.command ?? 'hermes', g.tokenSet ? 'set' : '-', String(g.active)]));
        return 0;
      }
      case 'show': {
        const { values, positionals } = parseCommandArgs(rest, { json: { type: 'boolean' } }, GATEWAY_USAGE);
        const g = (await call(getGateway, { name: one(positionals) })) as GatewayRecord;
        if (values.json) json(g);
        else io.stdout.write(`name     ${g.name}\nkind     ${g.kind}\naddress  ${g.url ?? g.command ?? 'hermes (on PATH)'}\ntoken    ${g.tokenSet ? '(set, write-only)' : '(none)'}\nactive   ${g.active}\n`);
        return 0;
      }
      case 'remove': {
        const { positionals } = parseCommandArgs(rest, {}, GATEWAY_USAGE);
        const g = (await call(deleteGateway, { name: one(positionals) })) as GatewayRecord;
        io.stdout.write(`gateway ${g.name} removed\n`);
        return 0;
      }
      case 'health': {
        const { positionals } = parseCommandArgs(rest, {}, GATEWAY_USAGE);
        const health = (await call(checkGatewayHealth, { name: one(positionals) })) as { gateway: string; ok: boolean; detail: string };
        io.stdout.write(`gateway ${health.gateway}: ${health.ok ? 'ok' : 'NOT OK'} (${health.detail})\n`);
        return health.ok ? 0 : 1;
      }
      default:
        throw new UsageError(`usage:\n${GATEWAY_USAGE}`);
    }
  }
  switch (sub) {
    case 'add': {
      const { values, positionals } = parseCommandArgs(
        rest,
        {
          gateway: { type: 'string' },
          platform: { type: 'string' },
          to: { type: 'string' },
          thread: { type: 'string' },
          owner: { type: 'string' },
          'trusted-group': { type: 'string', multiple: true },
          target: { type: 'string', multiple: true },
          workspace: { type: 'string' },
          project: { type: 'string' },
          inactive: { type: 'boolean' },
        },
        GATEWAY_USAGE,
      );
      if (!values.gateway || !values.platform || !values.to) throw new UsageError(`--gateway, --platform and --to are required\nusage:\n${GATEWAY_USAGE}`);
      const services = await open();
      const channel = (await call(createChannel, {
        name: one(positionals),
        gateway: values.gateway,
        platform: values.platform,
        homeTo: values.to,
        homeThreadId: values.thread,
        ownerId: values.owner,
        trustedGroups: values['trusted-group'],
        targets: (values.target ?? []).map(parseTarget),
        workspaceId: values.workspace ? services.domain.workspaces.resolve(values.workspace).id : undefined,
        projectId: values.project ? services.domain.projects.resolve(values.project).id : undefined,
        active: !values.inactive,
      })) as ChannelRecord;
      io.stdout.write(`channel ${channel.name} added (${channel.platform} via ${channel.gateway}, home ${channel.home.to})\n`);
      return 0;
    }
    case 'list': {
      const { values } = parseCommandArgs(rest, { json: { type: 'boolean' } }, GATEWAY_USAGE);
      const { items } = (await call(listChannels, {})) as { items: ChannelRecord[] };
      if (values.json) json(items);
      else if (items.length === 0) io.stdout.write('no channels (add one with `svc channel add <name> --gateway <g> --platform <p> --to <chat>`)\n');
      else
        printTable(
          io,
          ['NAME', 'GATEWAY', 'PLATFORM', 'HOME', 'OWNER', 'SCOPE', 'ACTIVE'],
          items.map((c) => [
            c.name,
            c.gateway,
            c.platform,
            `${c.home.to}${c.home.threadId ? `:${c.home.threadId}` : ''}`,
            c.ownerId ?? '-',
            c.scope.projectId ? `project ${c.scope.projectId}` : c.scope.workspaceId ? `workspace ${c.scope.workspaceId}` : 'all',
            String(c.active),
          ]),
        );
      return 0;
    }
    case 'enable':
    case 'disable': {
      const { positionals } = parseCommandArgs(rest, {}, GATEWAY_USAGE);
      const c = (await call(updateChannel, { name: one(positionals), active: sub === 'enable' })) as ChannelRecord;
      io.stdout.write(`channel ${c.name} ${c.active ? 'enabled' : 'disabled'}\n`);
      return 0;
    }
    case 'remove': {
      const { positionals } = parseCommandArgs(rest, {}, GATEWAY_USAGE);
      const c = (await call(deleteChannel, { name: one(positionals) })) as ChannelRecord;
      io.stdout.write(`channel ${c.name} removed\n`);
      return 0;
    }
    default:
      throw new UsageError(`usage:\n${GATEWAY_USAGE}`);
  }
}

function one(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(`give one name\nusage:\n${GATEWAY_USAGE}`);
  return positionals[0]!;
}

function parseTarget(spec: string): { name: string; to: string; threadId?: string } {
  const match = /^([^=]+)=([^:]+)(?::(.+))?$/.exec(spec);
  if (!match) throw new UsageError(`--target must be <name>=<chat>[:<thread>], got ${spec}`);
  return { name: match[1]!, to: match[2]!, ...(match[3] ? { threadId: match[3] } : {}) };
}
