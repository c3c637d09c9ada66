// Installing from the catalog: what it offers, install, update, rollback and uninstall. Requests
// name an extension id and an exact version, nothing else; over HTTP a URL or a path anywhere in
// the request is refused with its own code before the input is validated (`refuseLocations`).
import { z } from 'zod';
import { checkExtensionId } from '../../features/extensions/catalog-installer/index.js';
import { defineOperation, type OperationContext } from '../../operation-framework/index.js';
import { CatalogListingSchema, CheckWarningSchema, OutdatedListSchema, presentOutcome, presentWarnings, SwitchOutcomeSchema } from './catalog-schemas.js';
import { ExtensionSchema } from './extension-schema.js';
import { presentExtension } from './present-extension.js';

// The grammar of ids and versions is the installer's, with its own codes (release_spec_invalid,
// exact_version_required); the schemas hold the shape only.
const Id = z.string().min(1).max(214);
const Version = z.string().min(1).max(256);

/** How the caller follows a download: the CLI's steps and progress bar; HTTP follows nothing. */
const observe = (ctx: OperationContext) => ({ ...ctx.progress, signal: ctx.signal });

export const listCatalog = defineOperation({
  name: 'list_catalog',
  group: 'extension',
  mcp: false,
  description: 'What the configured catalog offers: each extension, its versions with permissions and compatibility, what is installed, and whether the index is signed.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: CatalogListingSchema,
  http: { method: 'GET', path: '/api/extensions/catalog', refuseLocations: true },
  handler: (_input, ctx) => ctx.services.catalog.catalog(ctx.signal),
});

export const listOutdatedExtensions = defineOperation({
  name: 'list_outdated_extensions',
  group: 'extension',
  mcp: false,
  description:
    'Each installed catalog extension against the verified index: its version, the newest version compatible with this svc, Node.js and the installed CLI (with its permission changes), and the newest overall with why it is not compatible.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: OutdatedListSchema,
  http: { method: 'GET', path: '/api/extensions/outdated', refuseLocations: true },
  handler: (_input, ctx) => ctx.services.catalog.outdated((id) => ctx.services.extensions.cliVersion(id), ctx.signal),
});

export const installExtension = defineOperation({
  name: 'install_extension',
  group: 'extension',
  mcp: false,
  description: 'Install an exact catalog version of an extension: downloaded, digest-checked, unpacked and registered disabled; nothing of it runs until it is enabled.',
  readOnly: false,
  runsIn: 'any',
  input: z.object({ id: Id, version: Version }).strict(),
  output: z.object({ extension: ExtensionSchema, warnings: z.array(CheckWarningSchema) }),
  http: { method: 'POST', path: '/api/extensions/install', status: 201, refuseLocations: true },
  handler: async (input, ctx) => {
    const { record, warnings } = await ctx.services.catalog.install(input.id, input.version, observe(ctx));
    return { extension: presentExtension(record, ctx.services.extensions), warnings: presentWarnings(warnings) };
  },
});

export const updateExtension = defineOperation({
  name: 'update_extension',
  group: 'extension',
  mcp: false,
  description: 'Change an installed catalog extension to another exact version; it switches at once, or waits for confirmation when its permissions differ.',
  readOnly: false,
  runsIn: 'any',
  input: z.object({ id: Id, version: Version }).strict(),
  output: SwitchOutcomeSchema,
  http: { method: 'POST', path: '/api/extensions/:id/update', refuseLocations: true },
  handler: async (input, ctx) => presentOutcome(await ctx.services.catalog.update(input.id, input.version, observe(ctx)), ctx.services.extensions),
});

export const rollbackExtension = defineOperation({
  name: 'rollback_extension',
  group: 'extension',
  mcp: false,
  description: 'Go back to the version before the last update (or drop an update waiting for confirmation). Once only: a second rollback is refused.',
  readOnly: false,
  runsIn: 'any',
  input: z.object({ id: Id }).strict(),
  output: SwitchOutcomeSchema,
  http: { method: 'POST', path: '/api/extensions/:id/rollback', refuseLocations: true },
  handler: async (input, ctx) => presentOutcome(await ctx.services.catalog.rollback(checkExtensionId(input.id)), ctx.services.extensions),
});

export const uninstallExtension = defineOperation({
  name: 'uninstall_extension',
  group: 'extension',
  mcp: false,
  description: 'Uninstall a catalog extension and its files. Refused while connections still name it, unless forced; then those connections are listed.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: z.object({ id: Id, force: z.boolean().optional() }).strict(),
  output: z.object({ uninstalled: z.object({ id: z.string(), version: z.string(), connectionsLeft: z.array(z.string()) }) }),
  http: { method: 'POST', path: '/api/extensions/:id/uninstall', refuseLocations: true },
  handler: async (input, ctx) => ({ uninstalled: await ctx.services.catalog.uninstall(checkExtensionId(input.id), { force: input.force === true }) }),
});
