import type Router from '@koa/router';
import { SvcError, type ConfigSchema } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { presentConnection, splitSensitiveSettings, validateProviderConfig, type ConnectionRecord } from '../connections/index.js';
import type { ApiContext } from './api-context.js';
import { readJsonBody } from './read-json-body.js';

const EnvSchema = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment name is letters, digits and _'), z.string());
const ConnectionCreateBody = z
  .object({
    name: z.string().min(1),
    providerId: z.string().min(1),
    enabled: z.boolean().optional(),
    commandOverride: z.string().min(1).nullable().optional(),
    baseArgs: z.array(z.string()).max(100).optional(),
    env: EnvSchema.optional(),
    /** The provider's own settings, sensitive ones included; they come back masked. */
    settings: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
const ConnectionUpdateBody = z
  .object({
    enabled: z.boolean().optional(),
    commandOverride: z.string().min(1).nullable().optional(),
    baseArgs: z.array(z.string()).max(100).optional(),
    env: EnvSchema.optional(),
    /** Merged into the current settings; `null` removes a setting. */
    settings: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Connections over HTTP: sensitive values go in, and never come out. */
export function connectionRoutes(router: Router, api: ApiContext): void {
  const { connections, extensions, logger } = api;
  const present = (record: ConnectionRecord) => presentConnection(record, connections.secretKeys(record.id));
  const remember = (secrets: Record<string, string>) => {
    for (const value of Object.values(secrets)) logger.redactor.addSecret(value);
  };
  const schemaOf = async (providerId: string): Promise<ConfigSchema | undefined> => {
    extensions.registry.get(providerId);
    const report = await extensions.doctor(providerId);
    const failed = report.checks.find((check) => check.check === 'config-schema' && !check.ok);
    if (failed && !failed.ok) throw new SvcError({ code: failed.code, message: failed.message });
    return report.configSchema;
  };

  router.get('/api/connections', (ctx) => {
    ctx.body = { items: connections.list().map(present) };
  });
  router.get('/api/connections/:name', (ctx) => {
    ctx.body = present(connections.get(ctx.params.name!));
  });
  router.post('/api/connections', async (ctx) => {
    const body = await readJsonBody(ctx, ConnectionCreateBody, 'connection');
    const schema = await schemaOf(body.providerId);
    const settings = body.settings ?? {};
    const { config, secrets } = splitSensitiveSettings(schema, settings);
    remember(secrets);
    validateProviderConfig(schema, settings);
    const record = connections.add({
      name: body.name,
      providerId: body.providerId,
      enabled: body.enabled ?? true,
      commandOverride: body.commandOverride ?? null,
      baseArgs: body.baseArgs ?? [],
      env: body.env ?? {},
      config,
      secrets,
    });
    ctx.status = 201;
    ctx.body = present(record);
  });
  router.patch('/api/connections/:name', async (ctx) => {
    const current = connections.get(ctx.params.name!);
    const body = await readJsonBody(ctx, ConnectionUpdateBody, 'connection update');
    let settingsPatch = {};
    if (body.settings) {
      const schema = await schemaOf(current.providerId);
      const merged: Record<string, unknown> = { ...current.config, ...connections.secretsOf(current.id) };
      for (const [key, value] of Object.entries(body.settings)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      const { config, secrets } = splitSensitiveSettings(schema, merged);
      remember(secrets);
      validateProviderConfig(schema, merged);
      settingsPatch = { config, secrets };
    }
    const record = connections.update(current.name, {
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      ...(body.commandOverride !== undefined ? { commandOverride: body.commandOverride } : {}),
      ...(body.baseArgs ? { baseArgs: body.baseArgs } : {}),
      ...(body.env ? { env: body.env } : {}),
      ...settingsPatch,
    });
    ctx.body = present(record);
  });
  router.delete('/api/connections/:name', (ctx) => {
    connections.remove(ctx.params.name!);
    ctx.status = 204;
  });
}
