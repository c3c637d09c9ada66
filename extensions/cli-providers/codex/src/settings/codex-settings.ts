import { SvcError, type HostContext, type JsonValue } from '@svc-org/ai-sdk';

// The connection's settings for this provider (config.schema.json), checked at the edge. Values are
// never echoed into an error: `apiKey` is a secret, and the others need not be shown to be fixed.

export const APPROVAL_MODES = ['default', 'bypass'] as const;
export const SANDBOX_MODES = ['default', 'read-only', 'workspace-write', 'danger-full-access'] as const;
export const REASONING_EFFORTS = ['default', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export interface CodexSettings {
  model?: string;
  approvalMode: (typeof APPROVAL_MODES)[number];
  sandbox: (typeof SANDBOX_MODES)[number];
  reasoningEffort: (typeof REASONING_EFFORTS)[number];
  extraArgs: string[];
  /** Passed to the CLI only as CODEX_API_KEY in the child's environment. */
  apiKey?: string;
}

export const DEFAULT_SETTINGS: CodexSettings = {
  approvalMode: 'default',
  sandbox: 'default',
  reasoningEffort: 'default',
  extraArgs: [],
};

function invalid(message: string): SvcError {
  return new SvcError({ code: 'invalid_request', message });
}

function optionalString(value: JsonValue | undefined, name: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`config.${name} must be a string`);
  return value;
}

function oneOf<T extends readonly string[]>(value: JsonValue | undefined, name: string, allowed: T, fallback: T[number]): T[number] {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw invalid(`config.${name} must be one of ${allowed.map((v) => `"${v}"`).join(', ')}`);
  }
  return value as T[number];
}

export function parseCodexSettings(raw: Record<string, JsonValue>): CodexSettings {
  const extraArgs = raw.extraArgs ?? [];
  if (!Array.isArray(extraArgs) || !extraArgs.every((arg) => typeof arg === 'string')) {
    throw invalid('config.extraArgs must be an array of strings');
  }
  const model = optionalString(raw.model, 'model');
  const apiKey = optionalString(raw.apiKey, 'apiKey');
  return {
    ...(model ? { model } : {}),
    approvalMode: oneOf(raw.approvalMode, 'approvalMode', APPROVAL_MODES, DEFAULT_SETTINGS.approvalMode),
    sandbox: oneOf(raw.sandbox, 'sandbox', SANDBOX_MODES, DEFAULT_SETTINGS.sandbox),
    reasoningEffort: oneOf(raw.reasoningEffort, 'reasoningEffort', REASONING_EFFORTS, DEFAULT_SETTINGS.reasoningEffort),
    extraArgs: extraArgs as string[],
    ...(apiKey ? { apiKey } : {}),
  };
}

/** Reads and checks the connection's settings (needs `config:provider`, which the manifest requests). */
export async function readCodexSettings(host: HostContext): Promise<CodexSettings> {
  return parseCodexSettings(await host.config.get());
}
