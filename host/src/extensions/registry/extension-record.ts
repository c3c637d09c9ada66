import { z } from 'zod';

export const EXTENSION_STATES = ['disabled', 'enabled', 'needs-confirmation', 'broken'] as const;
export type ExtensionState = (typeof EXTENSION_STATES)[number];
export const EXTENSION_SOURCES = ['dev', 'catalog', 'builtin'] as const;
export type ExtensionSource = (typeof EXTENSION_SOURCES)[number];

/** A row of `extensions`, parsed at the edge. */
export const ExtensionRowSchema = z
  .object({
    id: z.string(),
    source: z.enum(EXTENSION_SOURCES),
    state: z.enum(EXTENSION_STATES),
    path: z.string(),
    version: z.string(),
    display_name: z.string(),
    granted_permissions: z.string().transform((text) => z.array(z.string()).parse(JSON.parse(text))),
    error_code: z.string().nullable(),
    error_message: z.string().nullable(),
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));

export type ExtensionRecord = z.output<typeof ExtensionRowSchema>;
