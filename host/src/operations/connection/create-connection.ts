import { z } from 'zod';
import { ConnectionSchema, coerceSettings, presentConnection, splitSensitiveSettings, validateProviderConfig } from '../../features/connections/index.js';
import { defineOperation } from '../../operation-framework/index.js';
import { CONNECTION_FLAGS, ConnectionFields } from './connection-fields.js';
import { providerConfigSchema } from './provider-config-schema.js';

export const createConnection = defineOperation({
  name: 'create_connection',
  group: 'connection',
  mcp: false,
  description: "Add a connection: a name for running one provider with its settings, environment and CLI command.",
  readOnly: false,
  runsIn: 'any',
  input: z
    .object({
      name: z.string().min(1),
      providerId: z.string().min(1),
      ...ConnectionFields,
      /** The provider's own settings, sensitive ones included; they come back masked. */
      settings: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
  output: ConnectionSchema,
  http: { method: 'POST', path: '/api/connections', status: 201 },
  cli: {
    command: 'connection add',
    positionals: ['name'],
    expects: 'exactly one connection name',
    flags: {
      providerId: { flag: 'provider', value: '<id>', description: 'the provider it runs (required)', required: true },
      enabled: { flag: false, clear: { flag: 'disable', description: 'add it disabled', value: false } },
      ...CONNECTION_FLAGS,
    },
    order: ['provider', 'command', 'arg', 'env', 'set', 'disable'],
    examples: ['svc connection add work-claude --provider svc-official.claude-code --env ANTHROPIC_API_KEY=sk-ant-… --arg --verbose'],
    text: (record, print) => print.line(`connection ${record.name} added for ${record.providerId}`),
  },
  handler: async (input, ctx) => {
    const { connections, logger } = ctx.services;
    const schema = await providerConfigSchema(ctx.services, input.providerId);
    const settings = coerceSettings(schema, input.settings ?? {});
    const { config, secrets } = splitSensitiveSettings(schema, settings);
    for (const value of Object.values(secrets)) logger.redactor.addSecret(value);
    validateProviderConfig(schema, settings);
    const record = connections.add({
      name: input.name,
      providerId: input.providerId,
      enabled: input.enabled ?? true,
      commandOverride: input.commandOverride ?? null,
      baseArgs: input.baseArgs ?? [],
      env: input.env ?? {},
      config,
      secrets,
    });
    for (const value of connections.secretValuesOf(record)) logger.redactor.addSecret(value);
    return presentConnection(record, connections.secretKeys(record.id));
  },
});
