import { z } from 'zod';

const spelling = (value: string) => value.trim().toLowerCase().replace(/[-\s]+/g, '_');

/**
 * An input enum that takes a value however a person spells it: any case, `-`, `_` or a space
 * between words (`in-progress`, `in_progress` and `IN_PROGRESS` name the same status). Parsed to
 * the canonical value, so every face (CLI, HTTP, MCP) accepts the same spellings; the published
 * JSON schema still lists the canonical values.
 */
export function spelledEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((input) => (typeof input === 'string' ? (values.find((value) => spelling(value) === spelling(input)) ?? input) : input), z.enum(values));
}
