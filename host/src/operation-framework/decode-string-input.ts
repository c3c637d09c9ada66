import type { z } from 'zod';

// Looks through optional/default/nullable wrappers to the type a field finally has.
function baseTypes(schema: z.ZodType): string[] {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; options?: z.ZodType[]; in?: z.ZodType } } })._zod.def;
  if (def.innerType) return baseTypes(def.innerType);
  if (def.type === 'union' && def.options) return def.options.flatMap(baseTypes);
  if (def.type === 'pipe' && def.in) return baseTypes(def.in);
  return [def.type];
}

/**
 * Text from a URL (path segments, query) or a command line turned into the types the operation's
 * input declares: digits into numbers, "true"/"false" into booleans. Anything else stays as it is
 * and the schema judges it.
 */
export function decodeStringInput(schema: z.ZodType, raw: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as unknown as { _zod: { def: { shape?: Record<string, z.ZodType> } } })._zod.def.shape;
  if (!shape) return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = shape[key];
    if (!field || (typeof value !== 'string' && !Array.isArray(value))) {
      out[key] = value;
      continue;
    }
    out[key] = decodeText(field, value);
  }
  return out;
}

// A repeated query parameter or flag arrives as an array of text; a single one as text.
function decodeText(field: z.ZodType, value: unknown): unknown {
  const element = arrayElement(field);
  if (element) return (Array.isArray(value) ? value : [value]).map((item) => decodeText(element, item));
  if (typeof value !== 'string') return value;
  const types = baseTypes(field);
  if (types.includes('number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

// The element type of an array field, through optional/default/nullable wrappers.
function arrayElement(schema: z.ZodType): z.ZodType | undefined {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; element?: z.ZodType } } })._zod.def;
  if (def.innerType) return arrayElement(def.innerType);
  return def.type === 'array' ? def.element : undefined;
}
