import { SvcError, type ConfigSchema } from '@svc-org/ai-sdk';
import { MASK, splitSensitiveSettings, validateProviderConfig, type ConnectionRecord } from '../../connections/index.js';
import type { HostServices } from '../../host-services.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

export const CONNECTION_USAGE = `svc connection add <name> --provider <id> [--command <path>] [--arg <a>]... [--env K=V]... [--set key=value]...
svc connection list [--json]
svc connection show <name> [--json]
svc connection set <name> [--enable | --disable] [--command <path> | --no-command] [--arg <a>]... [--env K=V]... [--set key=value]... [--unset key]...
svc connection remove <name>`;

const EDIT_OPTIONS = {
  command: { type: 'string' },
  'no-command': { type: 'boolean' },
  arg: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  unset: { type: 'string', multiple: true },
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
} as const;

export async function connectionCommand(args: string[], io: CliIo, open: () => Promise<HostServices>): Promise<number> {
  const [sub, ...rest] = args;
  const services = await open();
  switch (sub) {
    case 'add': {
      const { values, positionals } = parseCommandArgs(rest, { provider: { type: 'string' }, ...EDIT_OPTIONS }, CONNECTION_USAGE);
      const name = single(positionals);
      if (!values.provider) throw new UsageError(`--provider is required\nusage:\n${CONNECTION_USAGE}`);
      services.registry.get(values.provider);
      const schema = await configSchemaOf(services, values.provider);
      const { config, secrets } = splitSensitiveSettings(schema, parseSettings(schema, values.set ?? []));
      validateProviderConfig(schema, { ...config, ...secrets });
      const record = services.connections.add({
        name,
        providerId: values.provider,
        enabled: !values.disable,
        commandOverride: values.command ?? null,
        baseArgs: values.arg ?? [],
        env: parseEnv(values.env ?? []),
        config,
        secrets,
      });
      io.stdout.write(`connection ${record.name} added for ${record.providerId}\n`);
      return 0;
    }
    case 'list': {
      const { values } = parseCommandArgs(rest, { json: { type: 'boolean' } }, 'svc connection list [--json]');
      const records = services.connections.list();
      if (values.json) {
        io.stdout.write(`${JSON.stringify(records.map((r) => present(services, r)), null, 2)}\n`);
        return 0;
      }
      if (records.length === 0) io.stdout.write('no connections (add one with `svc connection add <name> --provider <id>`)\n');
      for (const r of records) io.stdout.write(`${r.name.padEnd(20)} ${r.providerId.padEnd(28)} ${r.enabled ? 'enabled' : 'disabled'}\n`);
      return 0;
    }
    case 'show': {
      const { values, positionals } = parseCommandArgs(rest, { json: { type: 'boolean' } }, 'svc connection show <name> [--json]');
      const shown = present(services, services.connections.get(single(positionals)));
      if (values.json) io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
      else {
        io.stdout.write(`name      ${shown.name}\nprovider  ${shown.providerId}\nenabled   ${shown.enabled}\n`);
        io.stdout.write(`command   ${shown.commandOverride ?? '(discovered)'}\nargs      ${JSON.stringify(shown.baseArgs)}\n`);
        io.stdout.write(`env       ${JSON.stringify(shown.env)}\nsettings  ${JSON.stringify(shown.config)}\n`);
      }
      return 0;
    }
    case 'set': {
      const { values, positionals } = parseCommandArgs(rest, EDIT_OPTIONS, CONNECTION_USAGE);
      const current = services.connections.get(single(positionals));
      if (values.enable && values.disable) throw new UsageError('--enable and --disable exclude each other');
      const schema = await configSchemaOf(services, current.providerId);
      const merged: Record<string, unknown> = { ...current.config, ...services.connections.secretsOf(current.id), ...parseSettings(schema, values.set ?? []) };
      for (const key of values.unset ?? []) delete merged[key];
      validateProviderConfig(schema, merged);
      const { config, secrets } = splitSensitiveSettings(schema, merged);
      services.connections.update(current.name, {
        ...(values.enable ? { enabled: true } : {}),
        ...(values.disable ? { enabled: false } : {}),
        ...(values.command ? { commandOverride: values.command } : {}),
        ...(values['no-command'] ? { commandOverride: null } : {}),
        ...(values.arg ? { baseArgs: values.arg } : {}),
        ...(values.env ? { env: parseEnv(values.env) } : {}),
        config,
        secrets,
      });
      io.stdout.write(`connection ${current.name} updated\n`);
      return 0;
    }
    case 'remove': {
      const { positionals } = parseCommandArgs(rest, {}, 'svc connection remove <name>');
      const name = single(positionals);
      services.connections.remove(name);
      io.stdout.write(`connection ${name} removed\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown connection command "${sub ?? ''}"\nusage:\n${CONNECTION_USAGE}`);
  }
}

function single(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one connection name\nusage:\n${CONNECTION_USAGE}`);
  return positionals[0]!;
}

async function configSchemaOf(services: HostServices, providerId: string): Promise<ConfigSchema | undefined> {
  const report = await services.extensions.doctor(providerId);
  const failed = report.checks.find((check) => check.check === 'config-schema' && !check.ok);
  if (failed && !failed.ok) throw new SvcError({ code: failed.code, message: failed.message });
  return report.configSchema;
}

function parseEnv(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env takes KEY=VALUE (got "${pair.split('=')[0]}")`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** `key=value` pairs typed by the provider's schema. Errors name the key, never the value. */
function parseSettings(schema: ConfigSchema | undefined, pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set takes key=value (got a value without a key)`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const type = schema?.properties[key]?.type;
    if (type === 'number' || type === 'integer') {
      const value = Number(raw);
      if (Number.isNaN(value)) throw new UsageError(`setting "${key}" must be a number`);
      out[key] = value;
    } else if (type === 'boolean') {
      if (raw !== 'true' && raw !== 'false') throw new UsageError(`setting "${key}" must be true or false`);
      out[key] = raw === 'true';
    } else if (type === 'array') {
      out[key] = raw.startsWith('[') ? JSON.parse(raw) : raw.split(',').filter(Boolean);
    } else {
      out[key] = raw;
    }
  }
  return out;
}

/** What list/show print: sensitive values masked, their presence visible. */
function present(services: HostServices, record: ConnectionRecord) {
  const masked = Object.fromEntries(services.connections.secretKeys(record.id).map((key) => [key, MASK]));
  return { ...record, config: { ...record.config, ...masked } };
}
