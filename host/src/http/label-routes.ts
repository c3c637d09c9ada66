import type Router from '@koa/router';
import { LabelUpdateSchema } from '../domain/index.js';
import type { ApiContext } from './api-context.js';
import { parseId } from './parse-id.js';
import { readJsonBody } from './read-json-body.js';

/** Labels are listed and created under their project (`/api/projects/:id/labels`). */
export function labelRoutes(router: Router, api: ApiContext): void {
  const { labels } = api.domain;
  router.get('/api/labels/:id', (ctx) => {
    ctx.body = labels.get(parseId(ctx.params.id, 'label id'));
  });
  router.patch('/api/labels/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'label id');
    ctx.body = labels.update(id, await readJsonBody(ctx, LabelUpdateSchema, 'label update'));
  });
  router.delete('/api/labels/:id', (ctx) => {
    labels.remove(parseId(ctx.params.id, 'label id'));
    ctx.status = 204;
  });
}
