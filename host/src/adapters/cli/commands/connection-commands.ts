// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import { createConnection, deleteConnection, getConnection, listConnections, updateConnection } from '../../../operations/connection/index.js';
import * as connectionOperations from '../../../operations/connection/index.js';
import type { CliCommand, CliOption, CliRun } from '../cli-command.js';
import { printJson } from '../print-json.js';
import { singlePositional } from '../single-positional.js';
import { UsageError } from '../usage-error.js';
import { printFields } from '../print-fields.js';
import { declaredCommands } from '../declared-commands.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const list = (value: unknown) => (Array.isArray(value) ? (value as string[]) : undefined);

const EDIT_OPTIONS: Record<string, CliOption> = {
  command: { type: 'string', value: '<path>', description: 'run this CLI executable instead of the discovered one' },
  arg: { type: 'string', multiple: true, value: '<arg>', description: 'an argument put before every call\'s own (may start with "-"; repeat for more)' },
  env: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'environment for the CLI; values are secrets, shown masked (repeat for more)' },
  set: { type: 'string', multiple: true, value: 'key=value', description: "a provider setting, typed by the provider's schema (repeat for more)" },
};

/** `KEY=VALUE` pairs; the error names the key, never the value (it may be a secret). */
function pairs(values: string[] | undefined, option: string, keyRule: string): Record<string, string> | undefined {
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const pair of values) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--${option} takes ${keyRule} (got "${pair.split('=')[0]}")`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

function name(run: CliRun, command: CliCommand): string {
  return singlePositional(run, command, 'connection name');
}

// Written by hand; an operation of the group that declares its command (`cli`) joins them after these.
export const CONNECTION_COMMANDS: CliCommand[] = declaredCommands([connectionOperations], [
  {
    group: 'connection',
    name: 'add',
    operation: createConnection,
    positionals: '<name>',
    options: {
      provider: { type: 'string', value: '<id>', description: 'the provider it runs (required)' },
      ...EDIT_OPTIONS,
      disable: { type: 'boolean', description: 'add it disabled' },
    },
    json: true,
    examples: ['svc connection add work-claude --provider svc-official.claude-code --env ANTHROPIC_API_KEY=sk-ant-… --arg --verbose'],
    async run(run) {
      const provider = text(run.values.provider);
      if (!provider) throw new UsageError('--provider is required\nusage: svc connection add <name> --provider <id>');
      const record = await run.invoke(createConnection, {
        name: name(run, this),
        providerId: provider,
        enabled: !run.values.disable,
        commandOverride: text(run.values.command) ?? null,
        baseArgs: list(run.values.arg) ?? [],
        env: pairs(list(run.values.env), 'env', 'KEY=VALUE') ?? {},
        settings: pairs(list(run.values.set), 'set', 'key=value') ?? {},
      });
      if (run.json) printJson(run.io, record);
      else run.io.stdout.write(`connection ${record.name} added for ${record.providerId}\n`);
      return 0;
    },
  },
  {
    group: 'connection',
    name: 'list',
    operation: listConnections,
    options: {},
    json: true,
    examples: ['svc connection list'],
    async run(run) {
      const { items } = await run.invoke(listConnections, {});
      if (run.json) printJson(run.io, items);
      else if (items.length === 0) run.io.stdout.write('no connections (add one with `svc connection add <name> --provider <id>`)\n');
      else for (const r of items) run.io.stdout.write(`${r.name.padEnd(20)} ${r.providerId.padEnd(28)} ${r.enabled ? 'enabled' : 'disabled'}\n`);
      return 0;
    },
  },
  {
    group: 'connection',
    name: 'show',
    operation: getConnection,
    positionals: '<name>',
    options: {},
    json: true,
    examples: ['svc connection show work-claude'],
    async run(run) {
      const shown = await run.invoke(getConnection, { name: name(run, this) });
      if (run.json) printJson(run.io, shown);
      else {
        printFields(run.io, [
          ['name', shown.name],
          ['provider', shown.providerId],
          ['enabled', shown.enabled],
          ['command', shown.commandOverride ?? '(discovered)'],
          ['args', JSON.stringify(shown.baseArgs)],
          ['env', JSON.stringify(shown.env)],
          ['settings', JSON.stringify(shown.config)],
        ]);
      }
      return 0;
    },
  },
  {
    group: 'connection',
    name: 'set',
    operation: updateConnection,
    positionals: '<name>',
    options: {
      enable: { type: 'boolean', description: 'enable it' },
      disable: { type: 'boolean', description: 'disable it' },
      ...EDIT_OPTIONS,
      'no-command': { type: 'boolean', description: 'go back to the discovered CLI executable' },
      unset: { type: 'string', multiple: true, value: '<key>', description: 'remove a provider setting (repeat for more)' },
    },
    json: true,
    examples: ['svc connection set work-claude --command /opt/claude/bin/claude --arg --verbose'],
    async run(run) {
      const v = run.values;
      if (v.enable && v.disable) throw new UsageError('--enable and --disable exclude each other');
      if (v.command && v['no-command']) throw new UsageError('--command and --no-command exclude each other');
      const settings: Record<string, unknown> = { ...(pairs(list(v.set), 'set', 'key=value') ?? {}) };
      for (const key of list(v.unset) ?? []) settings[key] = null;
      const record = await run.invoke(updateConnection, {
        name: name(run, this),
        ...(v.enable ? { enabled: true } : {}),
        ...(v.disable ? { enabled: false } : {}),
        ...(text(v.command) ? { commandOverride: text(v.command) } : {}),
        ...(v['no-command'] ? { commandOverride: null } : {}),
        ...(list(v.arg) ? { baseArgs: list(v.arg) } : {}),
        ...(list(v.env) ? { env: pairs(list(v.env), 'env', 'KEY=VALUE') } : {}),
        ...(Object.keys(settings).length > 0 ? { settings } : {}),
      });
      if (run.json) printJson(run.io, record);
      else run.io.stdout.write(`connection ${record.name} updated\n`);
      return 0;
    },
  },
  {
    group: 'connection',
    name: 'remove',
    operation: deleteConnection,
    positionals: '<name>',
    options: {},
    json: true,
    examples: ['svc connection remove work-claude'],
    async run(run) {
      const record = await run.invoke(deleteConnection, { name: name(run, this) });
      if (run.json) printJson(run.io, record);
      else run.io.stdout.write(`connection ${record.name} removed\n`);
      return 0;
    },
  },
]);
