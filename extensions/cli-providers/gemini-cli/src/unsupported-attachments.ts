import type { SessionAttachments, UnsupportedAttachment } from '@svc-org/ai-sdk';

/**
 * Gemini CLI 0.61 has no per-run flag for MCP servers, hooks or extra system instructions: it reads
 * them from settings files (`mcpServers`, `hooks`) and `GEMINI.md`, which belong to the user and
 * the repository. Every attachment is reported as unsupported instead of being written there.
 */
export function unsupportedAttachments(attachments: SessionAttachments | undefined): UnsupportedAttachment[] {
  if (!attachments) return [];
  const unsupported: UnsupportedAttachment[] = [];
  if ((attachments.mcpServers ?? []).length > 0) unsupported.push({ kind: 'mcpServers', reason: 'Gemini CLI takes MCP servers only from its settings files' });
  const hooks = attachments.hooks ?? {};
  const reason = 'Gemini CLI takes hooks only from its settings files';
  if (hooks.stop) unsupported.push({ kind: 'stopHook', reason });
  if (hooks.promptSubmit) unsupported.push({ kind: 'promptSubmitHook', reason });
  if (hooks.preToolUse) unsupported.push({ kind: 'preToolUseHook', reason });
  if (attachments.directive) unsupported.push({ kind: 'directive', reason: 'Gemini CLI has no flag that appends system instructions (GEMINI_SYSTEM_MD replaces them)' });
  return unsupported;
}
