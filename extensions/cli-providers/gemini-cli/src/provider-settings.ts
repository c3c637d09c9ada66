import { SvcError, type AdapterContext, type JsonValue } from '@svc-org/ai-sdk';

// The connection's settings for this provider (config.schema.json), checked at the edge. The host
// applies the schema defaults; the defaults here cover a host or test that passes fewer keys.
// Checked by hand, not with zod: a provider depends on the SDK package only.

export const APPROVAL_MODES = ['default', 'auto_edit', 'yolo', 'plan'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export interface ProviderSettings {
  model: string;
  approvalMode: ApprovalMode;
  trustWorkspace: boolean;
  extraArgs: string[];
  apiKey: string;
}

export const DEFAULT_PROVIDER_SETTINGS: ProviderSettings = {
  model: '',
  approvalMode: 'default',
  trustWorkspace: false,
  extraArgs: [],
  apiKey: '',
};

export function parseProviderSettings(raw: Record<string, JsonValue>): ProviderSettings {
  const settings = { ...DEFAULT_PROVIDER_SETTINGS, extraArgs: [...DEFAULT_PROVIDER_SETTINGS.extraArgs] };
  const bad: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || value === undefined) continue;
    switch (key) {
      case 'model':
      case 'apiKey':
        if (typeof value === 'string') settings[key] = value.trim();
        else bad.push(key);
        break;
      case 'approvalMode':
        if (typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value)) {
          settings.approvalMode = value as ApprovalMode;
        } else bad.push(key);
        break;
      case 'trustWorkspace':
        if (typeof value === 'boolean') settings.trustWorkspace = value;
        else bad.push(key);
        break;
      case 'extraArgs':
        // An array in the schema; a textarea may hand over one argument per line.
        if (Array.isArray(value) && value.every((item) => typeof item === 'string')) settings.extraArgs = value as string[];
        else if (typeof value === 'string') settings.extraArgs = value.split('\n').filter((line) => line.trim() !== '');
        else bad.push(key);
        break;
      default:
        bad.push(key);
    }
  }
  if (bad.length > 0) {
    // Name the keys only: a value may be the secret.
    throw new SvcError({ code: 'invalid_request', message: `invalid Gemini CLI provider settings: ${bad.join(', ')}` });
  }
  return settings;
}

export async function readProviderSettings(ctx: AdapterContext): Promise<ProviderSettings> {
  return parseProviderSettings(await ctx.host.config.get());
}

/** The values that must never reach a log or an error. */
export function secretsOf(settings: ProviderSettings): string[] {
  return settings.apiKey ? [settings.apiKey] : [];
}
