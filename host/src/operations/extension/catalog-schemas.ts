// What the catalog operations answer, presented once for the CLI's --json, HTTP and the web page:
// ids, versions, states and permissions — never the catalog's URL or a folder on this machine.
import { CapabilitiesSchema } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { RollbackOutcome } from '../../features/extensions/catalog-installer/index.js';
import type { ExtensionService } from '../../features/extensions/index.js';
import type { CheckFailure } from '../../features/extensions/preflight/index.js';
import { EXTENSION_SOURCES, EXTENSION_STATES } from '../../features/extensions/registry/index.js';
import { ExtensionSchema } from './extension-schema.js';
import { presentExtension } from './present-extension.js';

/** A check that did not pass but does not stop the operation (a CLI not installed yet, say). */
export const CheckWarningSchema = z.object({ check: z.string(), code: z.string(), message: z.string(), fix: z.string() });

export function presentWarnings(warnings: readonly CheckFailure[]): Array<z.input<typeof CheckWarningSchema>> {
  return warnings.map(({ check, code, message, fix }) => ({ check, code, message, fix }));
}

const CatalogTrustSchema = z.union([
  z.object({ signed: z.literal(true), keyId: z.string(), version: z.number(), expires: z.string() }),
  z.object({ signed: z.literal(false), version: z.number().optional(), expires: z.string().optional() }),
]);

export const CatalogListingSchema = z.object({
  /** Whether the index was signed by a pinned key, and by which. */
  signature: CatalogTrustSchema,
  extensions: z.array(
    z.object({
      id: z.string(),
      publisher: z.string(),
      displayName: z.string(),
      description: z.string(),
      installed: z
        .object({
          version: z.string(),
          source: z.enum(EXTENSION_SOURCES),
          state: z.enum(EXTENSION_STATES),
          pendingVersion: z.string().optional(),
          previousVersion: z.string().optional(),
        })
        .nullable(),
      versions: z.array(
        z.object({
          version: z.string(),
          permissions: z.array(z.string()),
          compatibility: z.object({ svc: z.string(), node: z.string(), cli: z.string().optional() }),
          compatible: z.object({ svc: z.boolean(), node: z.boolean() }),
          capabilities: CapabilitiesSchema,
          size: z.number(),
          sha256: z.string(),
          installed: z.enum(['current', 'pending', 'previous']).optional(),
        }),
      ),
    }),
  ),
});

/** `switched`: the version serves now; `pending`: it waits for confirmation; `discarded-pending`: a staged update was dropped. */
export const SwitchOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('switched'), from: z.string(), to: z.string(), extension: ExtensionSchema, warnings: z.array(CheckWarningSchema) }),
  z.object({
    outcome: z.literal('pending'),
    current: z.string(),
    pending: z.string(),
    permissions: z.object({ added: z.array(z.string()), dropped: z.array(z.string()) }),
    // Set when the update names another CLI probe than the one confirmed.
    probe: z.object({ confirmed: z.string(), requested: z.string() }).optional(),
    extension: ExtensionSchema,
    warnings: z.array(CheckWarningSchema),
  }),
  z.object({ outcome: z.literal('discarded-pending'), discarded: z.string(), extension: ExtensionSchema }),
]);

export function presentOutcome(outcome: RollbackOutcome, extensions: Pick<ExtensionService, 'isolationOf'>): z.input<typeof SwitchOutcomeSchema> {
  const extension = presentExtension(outcome.record, extensions);
  switch (outcome.kind) {
    case 'switched':
      return { outcome: 'switched', from: outcome.from, to: outcome.to, extension, warnings: presentWarnings(outcome.warnings) };
    case 'pending':
      return {
        outcome: 'pending',
        current: outcome.current,
        pending: outcome.pending,
        permissions: { added: outcome.added, dropped: outcome.dropped },
        ...(outcome.probe ? { probe: outcome.probe } : {}),
        extension,
        warnings: presentWarnings(outcome.warnings),
      };
    case 'discarded-pending':
      return { outcome: 'discarded-pending', discarded: outcome.discarded, extension };
  }
}

const OutdatedVersionSchema = z.object({ version: z.string(), permissions: z.object({ added: z.array(z.string()), dropped: z.array(z.string()) }) });

/** `svc ext outdated`, GET /api/extensions/outdated and the web page's "update available". */
export const OutdatedListSchema = z.object({
  /** False when no catalog is configured: there is nothing to compare with, which is no error. */
  configured: z.boolean(),
  /** Null when no catalog is configured. */
  signature: CatalogTrustSchema.nullable(),
  extensions: z.array(
    z.object({
      id: z.string(),
      installed: z.string(),
      pending: z.string().nullable(),
      cliVersion: z.string().nullable(),
      newestCompatible: OutdatedVersionSchema.nullable(),
      newest: OutdatedVersionSchema.extend({
        compatible: z.boolean(),
        incompatible: z.array(z.object({ check: z.enum(['svc', 'node', 'cli']), range: z.string(), have: z.string() })),
      }).nullable(),
      updateAvailable: z.boolean(),
    }),
  ),
});
