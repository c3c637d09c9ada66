import type { ConfigSchema } from '@svc-org/ai-sdk';

/** Provider settings split by the schema's `x-svc.sensitive`: secrets are stored apart. */
export function splitSensitiveSettings(schema: ConfigSchema | undefined, values: Record<string, unknown>) {
  const config: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (schema?.properties[key]?.['x-svc']?.sensitive) secrets[key] = String(value);
    else config[key] = value;
  }
  return { config, secrets };
}
