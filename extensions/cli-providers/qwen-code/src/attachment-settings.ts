import type { SessionAttachments, SessionHookCommand, UnsupportedAttachment } from '@svc-org/ai-sdk';

const FILE = 'qwen-system-defaults.json';

export interface AttachmentSettings {
  files: Array<{ name: string; content: string }>;
  envPatch: Record<string, string>;
  unsupported: UnsupportedAttachment[];
}

/**
 * Qwen Code has no per-run hook flag, but reads a system-defaults settings layer from the file
 * `QWEN_CODE_SYSTEM_DEFAULTS_PATH` names, below the user's and the project's settings, which stay
 * untouched. The hooks go into such a file in the run's folder, in Qwen Code's Claude-style shape:
 * `UserPromptSubmit`, `Stop`, and `PreToolUse` for the question tools.
 */
export function attachmentSettings(attachments: SessionAttachments | undefined, runtimeDir: string | undefined): AttachmentSettings {
  const result: AttachmentSettings = { files: [], envPatch: {}, unsupported: [] };
  const { stop, promptSubmit, preToolUse, permissionRequest } = attachments?.hooks ?? {};
  // Qwen Code has no hook that runs only when it would ask for approval (its PreToolUse runs for every
  // call, asked or not): its approval prompts stay in the terminal.
  if (permissionRequest) result.unsupported.push({ kind: 'permissionRequestHook', reason: 'Qwen Code has no hook that runs only when it would ask the person to approve a call' });
  if (!stop && !promptSubmit && !preToolUse) return result;
  if (!runtimeDir) {
    const reason = 'the host gave no run folder for the settings file Qwen Code needs for hooks';
    if (stop) result.unsupported.push({ kind: 'stopHook', reason });
    if (promptSubmit) result.unsupported.push({ kind: 'promptSubmitHook', reason });
    if (preToolUse) result.unsupported.push({ kind: 'preToolUseHook', reason });
    return result;
  }
  const hooks: Record<string, unknown[]> = {};
  if (promptSubmit) hooks.UserPromptSubmit = [{ hooks: [hookEntry(promptSubmit)] }];
  if (stop) hooks.Stop = [{ hooks: [hookEntry(stop)] }];
  if (preToolUse && preToolUse.toolNames.length > 0) {
    hooks.PreToolUse = [{ matcher: `^(${preToolUse.toolNames.map(escapeRegExp).join('|')})$`, hooks: [hookEntry(preToolUse)] }];
  }
  result.files.push({ name: FILE, content: `${JSON.stringify({ hooks }, null, 2)}\n` });
  result.envPatch.QWEN_CODE_SYSTEM_DEFAULTS_PATH = `${runtimeDir.replace(/\/+$/, '')}/${FILE}`;
  return result;
}

function hookEntry(hook: SessionHookCommand): Record<string, unknown> {
  return { type: 'command', command: shellCommand(hook.command), ...(hook.timeoutSec ? { timeout: hook.timeoutSec } : {}) };
}

function shellCommand(argv: string[]): string {
  return argv.map((word) => (/^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
