import type { OperationContext } from '@svc-org/host/operation-framework';
import type { ChannelRecord } from '../gateways/index.js';
import { identifyFromChat } from './identify-from-chat.js';
import { threadKeyOf, type ConversationPlace } from './conversation-store.js';
import type { RoutingStores } from './routing-stores.js';

export type RoutedBy = 'task_binding' | 'conversation' | 'explicit_project' | 'identify_project' | 'recent_project' | 'channel_default';

export interface ProjectResolution {
  projectId: number | null;
  taskId: number | null;
  routedBy: RoutedBy | null;
  candidates: { projectId: number; name: string }[];
}

const TASK_TOKEN = /\[\[svc:task=(\d+)\]\]/;

/** Projects the channel may see: its project, its workspace's, or every project for a global channel. */
export function visibleProjects(ctx: OperationContext, channel: ChannelRecord): number[] {
  const { projects } = ctx.services.domain;
  if (channel.scope.projectId !== null) return [channel.scope.projectId];
  return projects.list(channel.scope.workspaceId !== null ? { workspaceId: channel.scope.workspaceId } : {}).map((project) => project.id);
}

/** The task a reply is about: the `[[svc:task=<id>]]` token, else the delivery mapping of the message replied to. */
export function boundTask(ctx: OperationContext, input: { platform: string; chatId: string; text?: string; replyToMessageId?: string | undefined }): number | null {
  const token = input.text ? TASK_TOKEN.exec(input.text) : null;
  if (token) {
    const task = ctx.services.domain.tasks.find(Number(token[1]));
    if (task) return task.id;
  }
  if (input.replyToMessageId) {
    const row = ctx.services.db
      .prepare('SELECT task_id FROM harness_deliveries WHERE platform = ? AND chat_id = ? AND platform_message_id = ? AND task_id IS NOT NULL ORDER BY message_id DESC LIMIT 1')
      .get(input.platform, input.chatId, input.replyToMessageId) as { task_id: number } | undefined;
    if (row) return row.task_id;
  }
  return null;
}

/**
 * The project an OWNER message is about, first match wins: the reply/task binding, the explicit
 * project (it beats a binding, and the caller moves the binding to it), the thread or root-message
 * binding, a unique identify_project answer, the sender's recent project (seven days; in a DM the
 * chat-and-sender session is this rung, so it expires like it), the channel's default project.
 * Reads only; the caller stores the outcome.
 */
export async function resolveProject(
  ctx: OperationContext,
  stores: RoutingStores,
  channel: ChannelRecord,
  place: ConversationPlace & { text: string; project?: string | undefined; replyToMessageId?: string | undefined },
): Promise<ProjectResolution> {
  const visible = new Set(visibleProjects(ctx, channel));
  const none = { taskId: null, candidates: [] };
  const taskId = boundTask(ctx, place);
  if (taskId !== null) {
    const task = ctx.services.domain.tasks.get(taskId);
    if (visible.has(task.projectId)) return { projectId: task.projectId, taskId, routedBy: 'task_binding', candidates: [] };
  }
  if (place.project !== undefined) {
    const project = ctx.services.domain.projects.resolve(/^\d+$/.test(place.project) ? Number(place.project) : place.project);
    if (visible.has(project.id)) return { ...none, projectId: project.id, routedBy: 'explicit_project' };
  }
  if (!threadKeyOf(place).startsWith('sender:')) {
    const conversation = stores.conversations.bound(place);
    if (conversation && visible.has(conversation.projectId)) return { ...none, projectId: conversation.projectId, routedBy: 'conversation' };
  }
  const identified = await identifyFromChat(ctx, place.text);
  if (identified.project && visible.has(identified.project.id)) return { ...none, projectId: identified.project.id, routedBy: 'identify_project' };
  const recent = stores.conversations.recentProject(place.platform, place.senderId);
  if (recent !== undefined && visible.has(recent)) return { ...none, projectId: recent, routedBy: 'recent_project' };
  if (channel.scope.projectId !== null) return { ...none, projectId: channel.scope.projectId, routedBy: 'channel_default' };
  return {
    projectId: null,
    taskId: null,
    routedBy: null,
    candidates: identified.candidates.filter((candidate) => visible.has(candidate.projectId)).map((c) => ({ projectId: c.projectId, name: c.name })),
  };
}
