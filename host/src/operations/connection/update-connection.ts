import { z } from 'zod';
import { ConnectionSchema, coerceSettings, presentConnection, splitSensitiveSettings, validateProviderConfig } from '../../features/connections/index.js';
import { defineOperation } from '../../operation-framework/index.js';
import { CONNECTION_FLAGS, ConnectionFields } from './connection-fields.js';
import { providerConfigSchema } from './provider-config-schema.js';

export const updateConnection = defineOperation({
  name: 'update_connection',
  group: 'connection',
  mcp: false,
  description: 'Change a connection: enable or disable it, its CLI command, base arguments, environment or settings.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  input: z
    .object({
      name: z.string().min(1),
      ...ConnectionFields,
      /** Merged into the current settings; `null` removes a setting. */
      settings: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
  output: ConnectionSchema,
  http: { method: 'PATCH', path: '/api/connections/:name' },
  cli: {
    command: 'connection set',
    positionals: ['name'],
    expects: 'exactly one connection name',
    flags: {
      enabled: { flag: 'enable', description: 'enable it', clear: { flag: 'disable', description: 'disable it', value: false } },
      ...CONNECTION_FLAGS,
      commandOverride: { ...CONNECTION_FLAGS.commandOverride, clear: { flag: 'no-command', description: 'go back to the discovered CLI executable', value: null } },
      settings: { ...CONNECTION_FLAGS.settings, pairs: { unset: { flag: 'unset', description: 'remove a provider setting (repeat for more)' } } },
    },
    order: ['enable', 'disable', 'command', 'arg', 'env', 'set', 'no-command', 'unset'],
    examples: ['svc connection set work-claude --command /opt/claude/bin/claude --arg --verbose'],
    text: (record, print) => print.line(`connection ${record.name} updated`),
  },
  handler: async (input, ctx) => {
    const { connections, logger } = ctx.services;
    const current = connections.get(input.name);
    let settingsPatch = {};
    if (input.settings) {
      const schema = await providerConfigSchema(ctx.services, current.providerId);
      const merged: Record<string, unknown> = { ...current.config, ...connections.secretsOf(current.id) };
      for (const [key, value] of Object.entries(coerceSettings(schema, input.settings))) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      const { config, secrets } = splitSensitiveSettings(schema, merged);
      for (const value of Object.values(secrets)) logger.redactor.addSecret(value);
      validateProviderConfig(schema, merged);
      settingsPatch = { config, secrets };
    }
    const record = connections.update(current.name, {
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.commandOverride !== undefined ? { commandOverride: input.commandOverride } : {}),
      ...(input.baseArgs ? { baseArgs: input.baseArgs } : {}),
      ...(input.env ? { env: input.env } : {}),
      ...settingsPatch,
    });
    for (const value of connections.secretValuesOf(record)) logger.redactor.addSecret(value);
    return presentConnection(record, connections.secretKeys(record.id));
  },
});
