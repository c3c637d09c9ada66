import { z } from 'zod';
import { MASK, type ConnectionRecord } from './connection-record.js';

/** A connection as every adapter (CLI, --json, HTTP, MCP) shows it. */
export const ConnectionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  providerId: z.string(),
  enabled: z.boolean(),
  commandOverride: z.string().nullable(),
  baseArgs: z.array(z.string()),
  /** Names visible, values masked: environment values are secrets (API keys, tokens). */
  env: z.record(z.string(), z.string()),
  /** Provider settings; sensitive ones masked, their presence visible. */
  config: z.record(z.string(), z.unknown()),
  secretKeys: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedConnection = z.output<typeof ConnectionSchema>;

/** The one presenter of a connection: sensitive settings and every environment value masked. */
export function presentConnection(record: ConnectionRecord, secretKeys: readonly string[]): PresentedConnection {
  const maskedSettings = Object.fromEntries(secretKeys.map((key) => [key, MASK]));
  return {
    id: record.id,
    name: record.name,
    providerId: record.providerId,
    enabled: record.enabled,
    commandOverride: record.commandOverride ?? null,
    baseArgs: [...record.baseArgs],
    env: Object.fromEntries(Object.keys(record.env).map((key) => [key, MASK])),
    config: { ...record.config, ...maskedSettings },
    secretKeys: [...secretKeys],
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
