import { SvcError, type JsonValue } from '@svc-org/ai-sdk';

// The connection's settings for this provider (config.schema.json), checked at the edge. Values are
// never echoed into an error: `apiKey` is a secret, and the others need not be shown to be fixed.

export const PERMISSION_MODES = ['default', 'acceptEdits', 'auto', 'plan', 'dontAsk', 'bypassPermissions'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface ClaudeCodeSettings {
  /** `--model` when the request names none. */
  model?: string;
  /** `--permission-mode`; absent leaves the CLI's own setting. */
  permissionMode?: PermissionMode;
  /** Passed to the CLI only as ANTHROPIC_API_KEY in the child's environment. */
  apiKey?: string;
  extraArgs: string[];
}

function invalid(message: string): SvcError {
  return new SvcError({ code: 'invalid_request', message });
}

function optionalString(value: JsonValue | undefined, name: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`config.${name} must be a string`);
  return value;
}

export function parseClaudeCodeSettings(raw: Record<string, JsonValue>): ClaudeCodeSettings {
  const extraArgs = raw.extraArgs ?? [];
  if (!Array.isArray(extraArgs) || !extraArgs.every((arg) => typeof arg === 'string')) {
    throw invalid('config.extraArgs must be an array of strings');
  }
  const model = optionalString(raw.model, 'model');
  if (model?.startsWith('-')) throw invalid('config.model must not start with "-"');
  const permissionMode = optionalString(raw.permissionMode, 'permissionMode');
  if (permissionMode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(permissionMode)) {
    throw invalid(`config.permissionMode must be one of ${PERMISSION_MODES.map((mode) => `"${mode}"`).join(', ')}`);
  }
  const apiKey = optionalString(raw.apiKey, 'apiKey');
  return {
    ...(model ? { model } : {}),
    ...(permissionMode ? { permissionMode: permissionMode as PermissionMode } : {}),
    ...(apiKey ? { apiKey } : {}),
    extraArgs: extraArgs as string[],
  };
}
