import type { SessionAttachments, UnsupportedAttachment } from '@svc-org/ai-sdk';

/**
 * Gemini CLI 0.61 has no per-run flag for MCP servers, hooks or extra system instructions: it reads
 * them from settings files (`mcpServers`, `hooks`) and `GEMINI.md`, which belong to the user and
 * the repository. Its one settings layer a run could name (GEMINI_CLI_SYSTEM_DEFAULTS_PATH) is
 * skipped unless the file and every folder above it are owned by root and writable by nobody else,
 * which a folder of the user's is not. Every attachment is reported as unsupported instead.
 */
export function unsupportedAttachments(attachments: SessionAttachments | undefined): UnsupportedAttachment[] {
  if (!attachments) return [];
  const unsupported: UnsupportedAttachment[] = [];
  if ((attachments.mcpServers ?? []).length > 0) unsupported.push({ kind: 'mcpServers', reason: 'Gemini CLI takes MCP servers only from its settings files (its per-run system-defaults file must be owned by root)' });
  const hooks = attachments.hooks ?? {};
  const reason = 'Gemini CLI takes hooks only from its settings files (its per-run system-defaults file must be owned by root)';
  if (hooks.stop) unsupported.push({ kind: 'stopHook', reason });
  if (hooks.promptSubmit) unsupported.push({ kind: 'promptSubmitHook', reason });
  if (hooks.preToolUse) unsupported.push({ kind: 'preToolUseHook', reason });
  if (hooks.permissionRequest) unsupported.push({ kind: 'permissionRequestHook', reason });
  if (attachments.directive) unsupported.push({ kind: 'directive', reason: 'Gemini CLI has no flag that appends system instructions (GEMINI_SYSTEM_MD replaces them)' });
  return unsupported;
}
