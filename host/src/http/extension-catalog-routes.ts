// Catalog management over HTTP: what the catalog offers, install, update, rollback and uninstall.
// Requests name an extension id and an exact version, nothing else: URLs and paths are refused with
// their own codes before anything is validated (refuseLocations). Mount it before the operation
// routes: GET /api/extensions/catalog would otherwise be taken for an extension id (get_extension).
import type Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { parseInput } from '../domain/index.js';
import type { CatalogInstaller, RollbackOutcome } from '../extensions/catalog-installer/index.js';
import type { CheckFailure } from '../extensions/preflight/index.js';
import { presentExtension } from '../operations/extension/index.js';
import { readJsonBody } from './read-json-body.js';
import { refuseLocations } from './refuse-locations.js';

// Grammar of ids and versions is checked by the installer with its own codes (release_spec_invalid,
// exact_version_required); here only the shape.
const InstallBody = z.object({ id: z.string().min(1).max(214), version: z.string().min(1).max(256) }).strict();
const UpdateBody = z.object({ version: z.string().min(1).max(256) }).strict();
const EmptyBody = z.object({}).strict();
const UninstallBody = z.object({ force: z.boolean().optional() }).strict();

export interface ExtensionCatalogApi {
  catalog: CatalogInstaller;
}

function presentWarnings(warnings: CheckFailure[]) {
  return warnings.map(({ check, code, message }) => ({ check, code, message }));
}

function presentOutcome(outcome: RollbackOutcome) {
  switch (outcome.kind) {
    case 'switched':
      return { outcome: 'switched', from: outcome.from, to: outcome.to, extension: presentExtension(outcome.record), warnings: presentWarnings(outcome.warnings) };
    case 'pending':
      return {
        outcome: 'pending',
        current: outcome.current,
        pending: outcome.pending,
        permissions: { added: outcome.added, dropped: outcome.dropped },
        extension: presentExtension(outcome.record),
        warnings: presentWarnings(outcome.warnings),
      };
    case 'discarded-pending':
      return { outcome: 'discarded-pending', discarded: outcome.discarded, extension: presentExtension(outcome.record) };
  }
}

/** Reads the body, refuses locations anywhere in the request, then validates the body's shape. */
async function readRequest<T extends z.ZodTypeAny>(ctx: Koa.Context, schema: T, what: string): Promise<z.output<T>> {
  const body = await readJsonBody(ctx, z.unknown(), what);
  refuseLocations({ query: ctx.query, params: (ctx as { params?: unknown }).params, body });
  return parseInput(schema, body, what);
}

export function extensionCatalogRoutes(router: Router, api: ExtensionCatalogApi): void {
  const { catalog } = api;
  router.get('/api/extensions/catalog', async (ctx) => {
    refuseLocations({ query: ctx.query });
    ctx.body = await catalog.catalog();
  });
  router.post('/api/extensions/install', async (ctx) => {
    const body = await readRequest(ctx, InstallBody, 'install request');
    const { record, warnings } = await catalog.install(body.id, body.version);
    ctx.status = 201;
    ctx.body = { extension: presentExtension(record), warnings: presentWarnings(warnings) };
  });
  router.post('/api/extensions/:id/update', async (ctx) => {
    const body = await readRequest(ctx, UpdateBody, 'update request');
    ctx.body = presentOutcome(await catalog.update(ctx.params.id!, body.version));
  });
  router.post('/api/extensions/:id/rollback', async (ctx) => {
    await readRequest(ctx, EmptyBody, 'rollback request');
    ctx.body = presentOutcome(await catalog.rollback(ctx.params.id!));
  });
  router.post('/api/extensions/:id/uninstall', async (ctx) => {
    const body = await readRequest(ctx, UninstallBody, 'uninstall request');
    ctx.body = { uninstalled: await catalog.uninstall(ctx.params.id!, { force: body.force === true }) };
  });
}
