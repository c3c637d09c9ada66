// Product groups (projects that make one product): declared operations.
import { z } from 'zod';
import { defineOperation, IdSchema, listOf, type OperationContext, type ReadScopeView, type RecordResolver, type ScopedRow } from '../../operation-framework/index.js';
import { ProductGroupSchema, ProductGroupStore } from './product-group-store.js';

const Name = z.string().trim().min(1).max(100);
const ProjectIds = z.array(IdSchema).max(200).describe('projects of the same workspace; each in at most one group');
const store = (ctx: OperationContext) => new ProductGroupStore(ctx.services.db, ctx.services.domain);
/** The workspace of the product group an input names (a group spans projects, so a task reaches it only read, through its workspace). */
const PRODUCT_GROUP_RECORD: RecordResolver = (services, id) => ({ workspaceId: new ProductGroupStore(services.db, services.domain).get(Number(id)).workspaceId });

/** A group as a channel-scoped caller sees it: only the projects of its scope. */
const groupInScope = (group: ScopedRow, scope: ReadScopeView): ScopedRow => ({ ...group, projectIds: (group.projectIds as number[]).filter((id) => scope.visibleProject(id)) });

export const listProductGroups = defineOperation({
  name: 'list_product_groups',
  group: 'product_group',
  description: 'List product groups (projects that make one product), optionally of one workspace, with their project ids.',
  readOnly: true,
  runsIn: 'any',
  readScope: {
    before: (input, scope) => scope.workspace(input.workspaceId),
    after: (output, scope) => ({ ...output, items: (output.items as ScopedRow[]).filter((item) => scope.workspaceVisible(item.workspaceId as number)).map((item) => groupInScope(item, scope)) }),
  },
  reach: { names: { workspaceId: 'workspace' } },
  input: z.object({ workspaceId: IdSchema.optional() }).strict(),
  output: listOf(ProductGroupSchema),
  http: { method: 'GET', path: '/api/product-groups' },
  cli: { command: 'product-group list', flags: { workspaceId: { resolve: 'workspace' } }, examples: ['svc product-group list --workspace main'] },
  handler: (input, ctx) => ({ items: store(ctx).list(input.workspaceId) }),
});

export const getProductGroup = defineOperation({
  name: 'get_product_group',
  group: 'product_group',
  description: 'Show one product group with its project ids.',
  readOnly: true,
  runsIn: 'any',
  readScope: { after: (output, scope) => (scope.workspace(output.workspaceId), groupInScope(output, scope)) },
  reach: { names: { id: PRODUCT_GROUP_RECORD } },
  input: z.object({ id: IdSchema }).strict(),
  output: ProductGroupSchema,
  http: { method: 'GET', path: '/api/product-groups/:id' },
  cli: { command: 'product-group show', positionals: ['id'], examples: ['svc product-group show 1'] },
  handler: (input, ctx) => store(ctx).get(input.id),
});

export const createProductGroup = defineOperation({
  name: 'create_product_group',
  group: 'product_group',
  description: 'Group projects of one workspace as one product (e.g. web app, API and docs); the name is unique in the workspace.',
  readOnly: false,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z.object({ workspaceId: IdSchema, name: Name, description: z.string().max(10_000).default(''), projectIds: ProjectIds.default([]) }).strict(),
  output: ProductGroupSchema,
  http: { method: 'POST', path: '/api/product-groups', status: 201 },
  cli: {
    command: 'product-group create',
    positionals: ['name'],
    flags: { workspaceId: { resolve: 'workspace' } },
    examples: ['svc product-group create shop --workspace main --project-ids 3 --project-ids 4'],
  },
  handler: (input, ctx) => store(ctx).create(input),
});

export const updateProductGroup = defineOperation({
  name: 'update_product_group',
  group: 'product_group',
  description: 'Rename a product group, change its description, or replace its list of projects.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z.object({ id: IdSchema, name: Name.optional(), description: z.string().max(10_000).optional(), projectIds: ProjectIds.optional() }).strict(),
  output: ProductGroupSchema,
  http: { method: 'PATCH', path: '/api/product-groups/:id' },
  cli: { command: 'product-group update', positionals: ['id'], examples: ['svc product-group update 1 --name storefront'] },
  handler: (input, ctx) => {
    const { id, ...patch } = input;
    return store(ctx).update(id, patch);
  },
});

export const deleteProductGroup = defineOperation({
  name: 'delete_product_group',
  group: 'product_group',
  description: 'Remove a product group; its projects stay, ungrouped. Answers the removed group.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z.object({ id: IdSchema }).strict(),
  output: ProductGroupSchema,
  http: { method: 'DELETE', path: '/api/product-groups/:id', status: 204 },
  cli: { command: 'product-group delete', positionals: ['id'], examples: ['svc product-group delete 1'] },
  handler: (input, ctx) => store(ctx).remove(input.id),
});

