/**
 * What one send attempt through a gateway proved. Only `sent` carries a platform message id;
 * `unverified` means the request may have reached the platform, so it is never repeated blindly.
 */
export type SendOutcome =
  | { kind: 'sent'; platformMessageId: string; chatId?: string }
  /** The request left but no complete receipt came back (queued, timed out after write, no id). */
  | { kind: 'unverified'; code: string; message: string }
  /** Not sent (refused before delivery, or never left): try again at the next attempt. */
  | { kind: 'retry'; code: string; message: string }
  /** Not sent, and sending again cannot help (bad target, usage error, bad token). */
  | { kind: 'refused'; code: string; message: string };

export interface GatewaySendRequest {
  /** The outbox id: the gateway's idempotency key. */
  idempotencyKey: string;
  platform: string;
  to: string;
  threadId?: string | null;
  /** The platform message this one answers; a gateway that cannot send replies sends it plainly. */
  replyToId?: string | null;
  text: string;
}

/** One kind of gateway, as the outbox sees it. */
export interface GatewayClient {
  send(request: GatewaySendRequest, signal?: AbortSignal): Promise<SendOutcome>;
  /** A cheap check that the gateway is reachable and accepts our credentials; never sends. */
  health(signal?: AbortSignal): Promise<{ ok: boolean; detail: string }>;
}
