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
    if (!field || typeof value !== 'string') {
      out[key] = value;
      continue;
    }
    const types = baseTypes(field);
    if (types.includes('number') && /^-?\d+(\.\d+)?$/.test(value)) out[key] = Number(value);
    else if (types.includes('boolean') && (value === 'true' || value === 'false')) out[key] = value === 'true';
    else out[key] = value;
  }
  return out;
}
