import type { HarnessMessage } from './message-record.js';

export interface MessageRow {
  id: number;
  kind: HarnessMessage['kind'];
  task_id: number | null;
  project_id: number | null;
  workspace_id: number | null;
  execution_id: number | null;
  body: string;
  status: HarnessMessage['deliveryStatus'];
  expect_reply: number;
  target_to: string | null;
  target_thread: string | null;
  created_at: string;
  sent_at: string | null;
  channel_name: string | null;
  ask_id: number | null;
  ask_status: NonNullable<HarnessMessage['ask']>['status'] | null;
  ask_reply: string | null;
  ask_replied_at: string | null;
  ask_replied_via: string | null;
  ask_resume_outcome: string | null;
  out_id: string | null;
  out_state: string | null;
  out_attempts: number | null;
  out_next_attempt_at: number | null;
  out_error_code: string | null;
  out_error_message: string | null;
  d_platform: string | null;
  d_chat_id: string | null;
  d_platform_message_id: string | null;
}

/** One presenter for a message, used by the CLI, HTTP and MCP alike. */
export function presentMessageRow(row: MessageRow): HarnessMessage {
  const ask =
    row.ask_id !== null && row.ask_status !== null
      ? {
          id: row.ask_id,
          status: row.ask_status,
          reply: row.ask_reply,
          repliedAt: row.ask_replied_at,
          repliedVia: row.ask_replied_via,
          resumeOutcome: row.ask_resume_outcome,
        }
      : null;
  const status: HarnessMessage['status'] =
    row.kind === 'NOTIFY' ? 'NOTIFY_ONLY' : ask && ask.status !== 'INTENT' ? ask.status : row.status;
  const actions: HarnessMessage['actions'] = ['view'];
  if (ask?.status === 'OPEN') actions.push('reply');
  if (row.status === 'SENT_UNVERIFIED' || row.status === 'FAILED') actions.push('resend');
  return {
    id: row.id,
    kind: row.kind,
    ownership: { workspaceId: row.workspace_id, projectId: row.project_id, taskId: row.task_id },
    executionId: row.execution_id,
    body: row.body,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    status,
    deliveryStatus: row.status,
    expectReply: row.expect_reply === 1,
    target: { channel: row.channel_name, to: row.target_to, threadId: row.target_thread },
    ask,
    outbound:
      row.out_id !== null
        ? {
            id: row.out_id,
            state: row.out_state ?? 'PENDING',
            attempts: row.out_attempts ?? 0,
            nextAttemptAt: row.out_state === 'PENDING' && row.out_next_attempt_at !== null ? new Date(row.out_next_attempt_at).toISOString() : null,
            lastError: row.out_error_code ? { code: row.out_error_code, message: row.out_error_message ?? '' } : null,
          }
        : null,
    delivery: row.d_platform_message_id ? { platform: row.d_platform, chatId: row.d_chat_id, platformMessageId: row.d_platform_message_id } : null,
    actions,
  };
}
