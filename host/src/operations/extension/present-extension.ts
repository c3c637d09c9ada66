import type { z } from 'zod';
import type { ExtensionService } from '../../features/extensions/index.js';
import type { ExtensionRecord } from '../../features/extensions/registry/index.js';
import type { ExtensionSchema } from './extension-schema.js';

/** The one presenter of an extension record (CLI, HTTP, web UI, MCP): nothing of its location. */
export function presentExtension(record: ExtensionRecord, extensions: Pick<ExtensionService, 'isolationOf'>): z.input<typeof ExtensionSchema> {
  return {
    id: record.id,
    displayName: record.displayName,
    version: record.version,
    source: record.source,
    state: record.state,
    permissions: record.grantedPermissions,
    pendingVersion: record.pendingVersion ?? null,
    previousVersion: record.previousVersion ?? null,
    error: record.error ?? null,
    isolation: extensions.isolationOf(record),
  };
}
