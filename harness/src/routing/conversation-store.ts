import type { Db } from '@svc-org/host/platform/db';

export const RECENT_PROJECT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface ConversationPlace {
  platform: string;
  chatId: string;
  threadId: string | null;
  rootMessageId: string | null;
  senderId: string;
}

/**
 * The key a conversation is bound under: its thread, else its root message, else (a discussion
 * without either) the chat plus the sender, so that person's messages reuse one session.
 */
export function threadKeyOf(place: ConversationPlace): string {
  if (place.threadId) return `thread:${place.threadId}`;
  if (place.rootMessageId) return `root:${place.rootMessageId}`;
  return `sender:${place.senderId}`;
}

/** Conversation bindings (platform / chat / thread ↔ project conversation) and each user's recent project. */
export class ConversationStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
  }

  bound(place: ConversationPlace): { id: number; projectId: number; sessionKey: string } | undefined {
    const row = this.db
      .prepare('SELECT id, project_id, session_key FROM harness_conversations WHERE platform = ? AND chat_id = ? AND thread_key = ?')
      .get(place.platform, place.chatId, threadKeyOf(place)) as { id: number; project_id: number; session_key: string } | undefined;
    return row ? { id: row.id, projectId: row.project_id, sessionKey: row.session_key } : undefined;
  }

  /** Binds the place to the project (the binding moves when the user names another project there). */
  bind(place: ConversationPlace, projectId: number): { id: number; sessionKey: string } {
    const at = this.now().toISOString();
    const key = threadKeyOf(place);
    const row = this.db
      .prepare(
        `INSERT INTO harness_conversations (platform, chat_id, thread_key, project_id, session_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (platform, chat_id, thread_key) DO UPDATE SET project_id = excluded.project_id, updated_at = excluded.updated_at
         RETURNING id, session_key`,
      )
      .get(place.platform, place.chatId, key, projectId, `${place.platform}:${place.chatId}:${key}`, at, at) as { id: number; session_key: string };
    return { id: row.id, sessionKey: row.session_key };
  }

  recentProject(platform: string, senderId: string): number | undefined {
    const row = this.db.prepare('SELECT project_id, used_at FROM harness_recent_projects WHERE platform = ? AND sender_id = ?').get(platform, senderId) as
      | { project_id: number; used_at: string }
      | undefined;
    if (!row || this.now().getTime() - Date.parse(row.used_at) > RECENT_PROJECT_TTL_MS) return undefined;
    return row.project_id;
  }

  touchRecent(platform: string, senderId: string, projectId: number): void {
    this.db
      .prepare(
        `INSERT INTO harness_recent_projects (platform, sender_id, project_id, used_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (platform, sender_id) DO UPDATE SET project_id = excluded.project_id, used_at = excluded.used_at`,
      )
      .run(platform, senderId, projectId, this.now().toISOString());
  }
}
