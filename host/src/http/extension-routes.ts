import type Router from '@koa/router';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { ExtensionRecord } from '../extensions/registry/index.js';
import type { IsolationEnforcement } from '../extensions/runtime/index.js';
import type { ApiContext } from './api-context.js';
import { readJsonBody } from './read-json-body.js';

const EnableBody = z.object({ permissions: z.array(z.string().min(1)).max(50) }).strict();

/** What an extension looks like over HTTP: ids, versions and states — never a path or a URL. */
function presentRecord(record: ExtensionRecord, isolation: IsolationEnforcement) {
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
    isolation,
  };
}

export function extensionRoutes(router: Router, api: ApiContext): void {
  const { extensions } = api;
  const present = (record: ExtensionRecord) => presentRecord(record, extensions.isolationOf(record));
  router.get('/api/extensions', (ctx) => {
    ctx.body = { items: extensions.list().map(present) };
  });
  router.get('/api/extensions/:id', (ctx) => {
    ctx.body = present(extensions.registry.get(ctx.params.id!));
  });
  // What the user must confirm before enabling: the manifest's permissions, after preflight (those of
  // a staged catalog update when one waits, with `currentVersion` set).
  router.get('/api/extensions/:id/permissions', async (ctx) => {
    ctx.body = await extensions.permissionPrompt(ctx.params.id!);
  });
  // The body carries the exact permission list the user confirmed; anything else enables nothing.
  router.post('/api/extensions/:id/enable', async (ctx) => {
    const id = ctx.params.id!;
    const body = await readJsonBody(ctx, EnableBody, 'enable request');
    const confirmed = new Set(body.permissions);
    const record = await extensions.enable(id, async (prompt) => {
      const requested = prompt.requested.map((permission) => permission.name);
      if (requested.length !== confirmed.size || !requested.every((name) => confirmed.has(name))) {
        throw new SvcError({
          code: 'permissions_mismatch',
          message: `${id} requests ${requested.join(', ') || 'no permissions'}; confirm exactly that list`,
          details: { requested, confirmed: [...confirmed].sort() },
        });
      }
      return true;
    });
    ctx.body = present(record);
  });
  router.post('/api/extensions/:id/disable', async (ctx) => {
    await readJsonBody(ctx, z.object({}).strict());
    ctx.body = present(await extensions.disable(ctx.params.id!));
  });
}
