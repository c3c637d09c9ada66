// `svc gateway` and `svc channel`: where harness messages go. A token is read from an environment
// variable or stdin, never from the command line (other users can read a process's arguments).
import { readFileSync } from 'node:fs';
import { type CliCommand, declaredCommands, printJson, printTable, singlePositional, terminalLine, UsageError } from '@svc-org/host/adapters/cli';
import * as gateways from '../gateways/index.js';
import { checkGatewayHealth, createChannel, createGateway, listChannels, listGateways, updateChannel } from '../gateways/index.js';
import { withPlugins } from './with-plugins.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const list = (value: unknown) => (Array.isArray(value) ? (value as string[]) : []);

// `svc gateway show|remove|credential` and `svc channel remove` are declared with their operations
// (the `cli` part); the commands here read a token, parse targets, set a fixed value, exit 1 on an
// unhealthy gateway, or take stray arguments a declared command refuses.
export const GATEWAY_COMMANDS: CliCommand[] = withPlugins(
  declaredCommands(
    [gateways],
    [
      {
        group: 'gateway',
        name: 'add',
        operation: createGateway,
        positionals: '<name>',
        options: {
          kind: { type: 'string', value: 'openclaw|hermes', description: 'the gateway kind (required)' },
          url: { type: 'string', value: '<ws://…>', description: "openclaw: the Gateway's WebSocket URL" },
          command: { type: 'string', value: '<path>', description: 'hermes: the hermes executable (default: hermes on PATH)' },
          'token-env': { type: 'string', value: '<VAR>', description: 'read the gateway token from this environment variable' },
          'token-stdin': { type: 'boolean', description: 'read the gateway token from stdin' },
        },
        json: true,
        examples: ['svc gateway add claw --kind openclaw --url ws://127.0.0.1:18789 --token-env OC_TOKEN', 'svc gateway add herm --kind hermes'],
        async run(run) {
          let token: string | undefined;
          const variable = text(run.values['token-env']);
          if (variable) {
            token = run.io.env[variable];
            if (!token) throw new UsageError(`environment variable ${variable} is empty or unset`);
          } else if (run.values['token-stdin']) token = readFileSync(0, 'utf8').trim();
          const kind = text(run.values.kind);
          if (kind !== 'openclaw' && kind !== 'hermes') throw new UsageError('--kind must be openclaw or hermes');
          const gateway = await run.invoke(createGateway, {
            name: singlePositional(run, this, 'gateway name'),
            kind,
            url: text(run.values.url),
            command: text(run.values.command),
            token,
          });
          if (run.json) printJson(run.io, gateway);
          else run.io.stdout.write(`gateway ${gateway.name} added (${gateway.kind}${gateway.tokenSet ? ', token set' : ''})\n`);
          return 0;
        },
      },
      {
        group: 'gateway',
        name: 'list',
        operation: listGateways,
        options: {},
        json: true,
        examples: ['svc gateway list'],
        async run(run) {
          const { items } = await run.invoke(listGateways, {});
          if (run.json) printJson(run.io, items);
          else if (items.length === 0) run.io.stdout.write('no gateways (add one with `svc gateway add <name> --kind openclaw|hermes`)\n');
          else
            printTable(
              run.io,
              ['NAME', 'KIND', 'ADDRESS', 'TOKEN', 'ACTIVE'],
              items.map((g) => [g.name, g.kind, g.url ?? g.command ?? 'hermes', g.tokenSet ? 'set' : '-', String(g.active)]),
              run.style,
            );
          return 0;
        },
      },
      {
        group: 'gateway',
        name: 'health',
        operation: checkGatewayHealth,
        positionals: '<name>',
        options: {},
        json: true,
        examples: ['svc gateway health claw'],
        async run(run) {
          const health = await run.invoke(checkGatewayHealth, { name: singlePositional(run, this, 'gateway name') });
          if (run.json) printJson(run.io, health);
          else run.io.stdout.write(`gateway ${health.gateway}: ${health.ok ? 'ok' : 'NOT OK'} (${terminalLine(health.detail)})\n`);
          return health.ok ? 0 : 1;
        },
      },
      {
        group: 'channel',
        name: 'add',
        operation: createChannel,
        positionals: '<name>',
        options: {
          gateway: { type: 'string', value: '<name>', description: 'the gateway it goes through (required)' },
          platform: { type: 'string', value: '<platform>', description: 'telegram, discord, slack, … (required)' },
          to: { type: 'string', value: '<chat>', description: 'the owner/home target (required); a chat id starting with "-" is given as --to=-100…' },
          thread: { type: 'string', value: '<id>', description: 'the home thread or topic' },
          owner: { type: 'string', value: '<id>', description: "the owner's identity on this platform" },
          'trusted-group': { type: 'string', multiple: true, value: '<chat>', description: 'a group whose members may query (repeatable)' },
          target: { type: 'string', multiple: true, value: '<name>=<chat>[:<thread>]', description: 'a named target (repeatable)' },
          workspace: { type: 'string', value: '<id|name>', description: 'serve only this workspace' },
          project: { type: 'string', value: '<id|name>', description: 'serve only this project' },
          inactive: { type: 'boolean', description: 'add it switched off' },
        },
        json: true,
        examples: ['svc channel add owner --gateway claw --platform telegram --to 4242 --owner 4242', 'svc channel add team --gateway claw --platform telegram --to=-100777 --thread 5 --project web'],
        async run(run) {
          const gateway = text(run.values.gateway);
          const platform = text(run.values.platform);
          const to = text(run.values.to);
          if (!gateway || !platform || !to) throw new UsageError('--gateway, --platform and --to are required\nusage: svc channel add <name> --gateway <g> --platform <p> --to <chat>');
          const workspace = text(run.values.workspace);
          const project = text(run.values.project);
          const services = workspace || project ? await run.open() : undefined;
          const channel = await run.invoke(createChannel, {
            name: singlePositional(run, this, 'channel name'),
            gateway,
            platform,
            homeTo: to,
            homeThreadId: text(run.values.thread),
            ownerId: text(run.values.owner),
            trustedGroups: list(run.values['trusted-group']),
            targets: list(run.values.target).map(parseTarget),
            workspaceId: workspace ? services!.domain.workspaces.resolve(workspace).id : undefined,
            projectId: project ? services!.domain.projects.resolve(project).id : undefined,
            active: !run.values.inactive,
          });
          if (run.json) printJson(run.io, channel);
          else run.io.stdout.write(`channel ${channel.name} added (${channel.platform} via ${channel.gateway}, home ${channel.home.to})\n`);
          return 0;
        },
      },
      {
        group: 'channel',
        name: 'list',
        operation: listChannels,
        options: {},
        json: true,
        examples: ['svc channel list'],
        async run(run) {
          const { items } = await run.invoke(listChannels, {});
          if (run.json) printJson(run.io, items);
          else if (items.length === 0) run.io.stdout.write('no channels (add one with `svc channel add <name> --gateway <g> --platform <p> --to <chat>`)\n');
          else
            printTable(
              run.io,
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
              run.style,
            );
          return 0;
        },
      },
      ...(['enable', 'disable'] as const).map(
        (name): CliCommand => ({
          group: 'channel',
          name,
          operation: updateChannel,
          description: name === 'enable' ? 'Switch a channel on.' : 'Switch a channel off (nothing is sent through it).',
          positionals: '<name>',
          options: {},
          json: true,
          examples: [`svc channel ${name} team`],
          async run(run) {
            const c = await run.invoke(updateChannel, { name: singlePositional(run, this, 'channel name'), active: name === 'enable' });
            if (run.json) printJson(run.io, c);
            else run.io.stdout.write(`channel ${c.name} ${c.active ? 'enabled' : 'disabled'}\n`);
            return 0;
          },
        }),
      ),
    ],
    ['gateway add', 'gateway list', 'gateway show', 'gateway remove', 'gateway health', 'gateway credential', 'channel add', 'channel list', 'channel enable', 'channel disable', 'channel remove'],
  ),
);

function parseTarget(spec: string): { name: string; to: string; threadId?: string } {
  const match = /^([^=]+)=([^:]+)(?::(.+))?$/.exec(spec);
  if (!match) throw new UsageError(`--target must be <name>=<chat>[:<thread>], got ${spec}`);
  return { name: match[1]!, to: match[2]!, ...(match[3] ? { threadId: match[3] } : {}) };
}
