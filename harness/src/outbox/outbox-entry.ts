/** A claimed outbox row with what is needed to send it. */
export interface OutboxEntry {
  id: string;
  messageId: number;
  gatewayId: number | null;
  attempts: number;
  leaseOwner: string;
  taskId: number | null;
  body: string;
  channelId: number | null;
  to: string | null;
  threadId: string | null;
  /** The platform message this one answers (a reply where the gateway can send one). */
  replyToId: string | null;
}
