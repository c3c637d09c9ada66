import type { ConfigSchema } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';

/**
 * Settings typed as text (a command line's `--set key=value`) take the type the provider's schema
 * gives the key; values of other types pass as they are. Errors name the key, never the value.
 */
export function coerceSettings(schema: ConfigSchema | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const type = schema?.properties[key]?.type;
    if (typeof value !== 'string') out[key] = value;
    else if (type === 'number' || type === 'integer') {
      const number = Number(value);
      if (value.trim() === '' || Number.isNaN(number)) throw invalid(key, 'must be a number');
      out[key] = number;
    } else if (type === 'boolean') {
      if (value !== 'true' && value !== 'false') throw invalid(key, 'must be true or false');
      out[key] = value === 'true';
    } else if (type === 'array') {
      out[key] = value.startsWith('[') ? parseJsonArray(key, value) : value.split(',').filter(Boolean);
    } else out[key] = value;
  }
  return out;
}

function parseJsonArray(key: string, text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw invalid(key, 'must be a JSON array or a comma-separated list');
}

function invalid(key: string, rule: string): SvcError {
  return new SvcError({ code: 'config_invalid', message: `invalid provider settings: "${key}" ${rule}`, details: { problems: [`"${key}" ${rule}`] } });
}
