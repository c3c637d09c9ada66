import { SvcError } from '@svc-org/ai-sdk';
import type { ChannelRecord, ChannelStore } from '../gateways/index.js';

export interface SenderPolicy {
  role: 'OWNER' | 'NON_OWNER';
  /** The channel that decided: the owner's channel, or one that trusts this group chat. */
  channel: ChannelRecord;
  trustedGroup: boolean;
}

/**
 * Who is speaking, decided from the service's own configuration: the sender is the OWNER when an
 * active channel of that platform names them as its owner; a NON_OWNER is served only in a chat one
 * of those channels trusts. No caller can claim a role.
 */
export function senderPolicy(channels: ChannelStore, who: { platform: string; chatId: string; senderId: string }): SenderPolicy | undefined {
  const candidates = channels.list().filter((channel) => channel.active && channel.platform === who.platform);
  const owned = candidates.find((channel) => channel.ownerId !== null && channel.ownerId === who.senderId);
  const trusting = candidates.find((channel) => channel.trustedGroups.includes(who.chatId));
  if (owned) return { role: 'OWNER', channel: owned, trustedGroup: trusting !== undefined };
  if (trusting) return { role: 'NON_OWNER', channel: trusting, trustedGroup: true };
  return undefined;
}

/** The OWNER's policy, or a coded refusal: OWNER operations serve nobody else. */
export function requireOwner(channels: ChannelStore, who: { platform: string; chatId: string; senderId: string }, tool: string): SenderPolicy {
  const policy = senderPolicy(channels, who);
  if (!policy || policy.role !== 'OWNER') {
    throw new SvcError({
      code: 'owner_required',
      message: `${tool} serves only the owner configured for ${who.platform}`,
      details: { tool, platform: who.platform, fix: 'the owner identity is set on the channel (svc channel add … --owner <platform user id>)' },
    });
  }
  return policy;
}

/**
 * The chat sender a tool's input names (a reply typed in a chat and relayed by a gateway): none, or
 * all three ids, which must be the channel's owner; naming only some of them is refused.
 */
export function chatOwnerOf(channels: ChannelStore, input: { platform?: string; chatId?: string; senderId?: string }, tool: string): { platform: string; chatId: string; senderId: string } | undefined {
  const { platform, chatId, senderId } = input;
  if (platform === undefined && chatId === undefined && senderId === undefined) return undefined;
  if (platform === undefined || chatId === undefined || senderId === undefined) {
    throw new SvcError({ code: 'invalid_request', message: `${tool}: a chat reply names its platform, chatId and senderId together` });
  }
  requireOwner(channels, { platform, chatId, senderId }, tool);
  return { platform, chatId, senderId };
}

/** A trusted-group NON_OWNER (or the owner) in a chat a channel authorizes; a coded refusal otherwise. */
export function requireTrustedChat(channels: ChannelStore, who: { platform: string; chatId: string; senderId: string }, tool: string): SenderPolicy {
  const policy = senderPolicy(channels, who);
  if (!policy || (policy.role === 'NON_OWNER' && !policy.trustedGroup)) {
    throw new SvcError({
      code: 'chat_not_authorized',
      message: `${tool}: this ${who.platform} chat is not trusted by any active channel`,
      details: { tool, platform: who.platform, fix: 'add the group to a channel\'s trusted groups (svc channel add … --trusted-group <chat id>)' },
    });
  }
  return policy;
}
