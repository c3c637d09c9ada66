import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { MessageTextField } from '../operations/harness-schemas.js';
import { identifyFromChat } from './identify-from-chat.js';
import { InboundFields } from './inbound-fields.js';
import { visibleProjects } from './resolve-project.js';
import { routingStores } from './routing-stores.js';
import { requireTrustedChat } from './sender-policy.js';

export const routeGatewayQuery = defineOperation({
  name: 'route_gateway_query',
  group: 'gateway',
  // The read-only query bridge: one routed query and bounded project reads.
  mcp: { alsoIn: ['gateway-query'] },
  description:
    'One read-only call for a question from a trusted group (NON_OWNER senders too): checks the chat is authorized, resolves the project only among those ' +
    'the channel may see, and returns a short context to answer from. Creates no inbound, session, Workbench event or task.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: "resolves the project only among the channel's" },
  reach: { taskCaller: 'refused' },
  input: z.object({ ...InboundFields, text: MessageTextField, project: z.string().min(1).max(200).optional() }).strict(),
  output: z.object({
    role: z.enum(['OWNER', 'NON_OWNER']),
    projectId: z.number().nullable(),
    projectName: z.string().nullable(),
    context: z.string(),
    candidates: z.array(z.object({ projectId: z.number(), name: z.string() })),
  }),
  http: { method: 'POST', path: '/api/internal/harness/gateway/query' },
  async handler(input, ctx) {
    const stores = routingStores(ctx.services);
    const policy = requireTrustedChat(stores.channels, input, 'route_gateway_query');
    const { domain } = ctx.services;
    const visible = new Set(visibleProjects(ctx, policy.channel));
    let projectId: number | null = null;
    if (input.project !== undefined) {
      const named = domain.projects.list().find((p) => p.name === input.project || String(p.id) === input.project);
      if (named && visible.has(named.id)) projectId = named.id;
    }
    let candidates: { projectId: number; name: string }[] = [];
    if (projectId === null) {
      const identified = await identifyFromChat(ctx, input.text);
      if (identified.project && visible.has(identified.project.id)) projectId = identified.project.id;
      candidates = identified.candidates.filter((c) => visible.has(c.projectId)).map((c) => ({ projectId: c.projectId, name: c.name }));
      if (projectId === null && policy.channel.scope.projectId !== null) projectId = policy.channel.scope.projectId;
    }
    if (projectId === null) {
      return { role: policy.role, projectId: null, projectName: null, context: 'No single project matches; ask which project is meant.', candidates };
    }
    const project = domain.projects.get(projectId);
    const tasks = domain.tasks.list({ projectId });
    const open = tasks.filter((task) => task.status !== 'DONE' && task.status !== 'CANCELLED');
    const lines = [
      `Project ${project.name} (#${project.id}): ${open.length} open task(s) of ${tasks.length}.`,
      ...open.slice(0, 10).map((task) => `- #${task.id} [${task.status}] ${task.title}`),
    ];
    return { role: policy.role, projectId, projectName: project.name, context: lines.join('\n'), candidates: [] };
  },
});
