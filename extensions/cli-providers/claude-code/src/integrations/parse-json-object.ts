import { SvcError } from '@svc-org/ai-sdk';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A configuration file's text as an object. The error names the file but never quotes it: these
 * files hold MCP server environments and headers, which are often secrets.
 */
export function parseJsonObject(text: string, path: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SvcError({ code: 'integration_config_invalid', message: `${path} is not valid JSON; it was left unchanged` });
  }
  if (!isJsonObject(value)) {
    throw new SvcError({ code: 'integration_config_invalid', message: `${path} does not hold a JSON object; it was left unchanged` });
  }
  return value;
}
