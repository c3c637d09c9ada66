import type Router from '@koa/router';
import { WorkspaceCreateSchema, WorkspaceUpdateSchema } from '../domain/index.js';
import type { ApiContext } from './api-context.js';
import { parseId } from './parse-id.js';
import { readJsonBody } from './read-json-body.js';

export function workspaceRoutes(router: Router, api: ApiContext): void {
  const { workspaces } = api.domain;
  router.get('/api/workspaces', (ctx) => {
    ctx.body = { items: workspaces.list() };
  });
  router.post('/api/workspaces', async (ctx) => {
    const body = await readJsonBody(ctx, WorkspaceCreateSchema, 'workspace');
    ctx.status = 201;
    ctx.body = workspaces.create(body);
  });
  router.get('/api/workspaces/:id', (ctx) => {
    ctx.body = workspaces.get(parseId(ctx.params.id, 'workspace id'));
  });
  router.patch('/api/workspaces/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'workspace id');
    ctx.body = workspaces.update(id, await readJsonBody(ctx, WorkspaceUpdateSchema, 'workspace update'));
  });
  router.delete('/api/workspaces/:id', (ctx) => {
    workspaces.remove(parseId(ctx.params.id, 'workspace id'));
    ctx.status = 204;
  });
}
