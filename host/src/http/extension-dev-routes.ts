// Developer mode over HTTP (the Extensions settings page): register a built provider folder in
// place, and remove that registration. The folder is the one path a browser may send; the server
// checks it (absolute, an existing folder, a valid manifest) and nothing of the provider runs.
import type Router from '@koa/router';
import { z } from 'zod';
import type { ExtensionRecord } from '../extensions/registry/index.js';
import { presentExtension } from '../operations/extension/index.js';
import type { ApiContext } from './api-context.js';
import { readJsonBody } from './read-json-body.js';

const DevAddBody = z.object({ dir: z.string().min(1).max(4096) }).strict();

// The registration answer names the extension only; its state and permissions are get_extension's.
function present(record: ExtensionRecord) {
  const { id, displayName, version, source, state } = presentExtension(record);
  return { id, displayName, version, source, state };
}

export function extensionDevRoutes(router: Router, api: ApiContext): void {
  router.post('/api/extensions/dev', async (ctx) => {
    const body = await readJsonBody(ctx, DevAddBody, 'developer registration');
    const { record, report } = await api.extensions.devAdd(body.dir);
    ctx.status = 201;
    ctx.body = {
      extension: present(record),
      checks: report.checks.map((check) => (check.ok ? { check: check.check, ok: true } : { check: check.check, ok: false, code: check.code, message: check.message, fix: check.fix })),
    };
  });
  router.delete('/api/extensions/dev/:id', async (ctx) => {
    await api.extensions.devRemove(ctx.params.id!);
    ctx.status = 204;
  });
}
