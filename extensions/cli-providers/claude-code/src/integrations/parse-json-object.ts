import { SvcError } from '@svc-org/ai-sdk';
import { parse, type ParseError } from 'jsonc-parser';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A configuration file's text as an object (jsonc-parser: comments are read and kept by the edits,
 * trailing commas refused). The error names the file but never quotes it: these files hold MCP
 * server environments and headers, which are often secrets.
 */
export function parseJsonObject(text: string, path: string): JsonObject {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: false, allowEmptyContent: false });
  if (errors.length > 0) {
    throw new SvcError({ code: 'integration_config_invalid', message: `${path} is not valid JSON; it was left unchanged` });
  }
  if (!isJsonObject(value)) {
    throw new SvcError({ code: 'integration_config_invalid', message: `${path} does not hold a JSON object; it was left unchanged` });
  }
  return value;
}
