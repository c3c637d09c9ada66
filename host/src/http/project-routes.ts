import type Router from '@koa/router';
import { z } from 'zod';
import { LabelCreateSchema, ProjectCreateSchema, ProjectUpdateSchema, parseInput } from '../domain/index.js';
import type { ApiContext } from './api-context.js';
import { parseId } from './parse-id.js';
import { readJsonBody } from './read-json-body.js';

const ProjectListQuery = z.object({ workspaceId: z.coerce.number().int().positive().optional() }).strict();

export function projectRoutes(router: Router, api: ApiContext): void {
  const { projects, labels } = api.domain;
  router.get('/api/projects', (ctx) => {
    const query = parseInput(ProjectListQuery, ctx.query, 'project query');
    if (query.workspaceId !== undefined) api.domain.workspaces.get(query.workspaceId);
    ctx.body = { items: projects.list(query) };
  });
  router.post('/api/projects', async (ctx) => {
    const body = await readJsonBody(ctx, ProjectCreateSchema, 'project');
    ctx.status = 201;
    ctx.body = projects.create(body);
  });
  router.get('/api/projects/:id', (ctx) => {
    ctx.body = projects.get(parseId(ctx.params.id, 'project id'));
  });
  router.patch('/api/projects/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'project id');
    ctx.body = projects.update(id, await readJsonBody(ctx, ProjectUpdateSchema, 'project update'));
  });
  router.delete('/api/projects/:id', (ctx) => {
    projects.remove(parseId(ctx.params.id, 'project id'));
    ctx.status = 204;
  });

  router.get('/api/projects/:id/labels', (ctx) => {
    ctx.body = { items: labels.list(parseId(ctx.params.id, 'project id')) };
  });
  router.post('/api/projects/:id/labels', async (ctx) => {
    const projectId = parseId(ctx.params.id, 'project id');
    const body = await readJsonBody(ctx, LabelCreateSchema.omit({ projectId: true }), 'label');
    ctx.status = 201;
    ctx.body = labels.create({ ...body, projectId });
  });
}
