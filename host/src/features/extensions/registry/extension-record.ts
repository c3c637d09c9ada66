import { z } from 'zod';

export const EXTENSION_STATES = ['disabled', 'enabled', 'needs-confirmation', 'broken'] as const;
export type ExtensionState = (typeof EXTENSION_STATES)[number];
export const EXTENSION_SOURCES = ['dev', 'catalog', 'builtin'] as const;
export type ExtensionSource = (typeof EXTENSION_SOURCES)[number];

/** A row of `extensions`, parsed at the edge. */
const PermissionNamesSchema = z.array(z.string());

export const ExtensionRowSchema = z
  .object({
    id: z.string(),
    source: z.enum(EXTENSION_SOURCES),
    state: z.enum(EXTENSION_STATES),
    path: z.string(),
    version: z.string(),
    display_name: z.string(),
    granted_permissions: z.string().transform((text) => PermissionNamesSchema.parse(JSON.parse(text))),
    error_code: z.string().nullable(),
    error_message: z.string().nullable(),
    // Catalog registrations only (migration 0003): the version a rollback returns to, and a staged
    // update that waits for permission confirmation while the current version keeps serving.
    previous_version: z.string().nullish(),
    pending_version: z.string().nullish(),
    // Migration 0006: the version the last rollback left (a second rollback refuses to go forward).
    rolled_back_from: z.string().nullish(),
    // Migration 0008: the isolation the person chose (NULL: the default, see effective-isolation.ts).
    isolation: z.enum(['worker', 'process']).nullish(),
    // Migration 0010: the CLI probe confirmed with the grant (see probe-fingerprint.ts).
    confirmed_probe: z.string().nullish(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .transform((row) => ({
    id: row.id,
    source: row.source,
    state: row.state,
    path: row.path,
    version: row.version,
    displayName: row.display_name,
    grantedPermissions: row.granted_permissions,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : undefined,
    previousVersion: row.previous_version ?? undefined,
    pendingVersion: row.pending_version ?? undefined,
    rolledBackFrom: row.rolled_back_from ?? undefined,
    isolation: row.isolation ?? undefined,
    confirmedProbe: row.confirmed_probe ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));

export type ExtensionRecord = z.output<typeof ExtensionRowSchema>;
