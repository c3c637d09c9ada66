import { z } from 'zod';

// The JSON Schema 2020-12 subset a provider's config schema uses, with the `x-svc` UI keys.
export const CONTROLS = ['text', 'textarea', 'number', 'checkbox', 'select'] as const;

export const XSvcSchema = z
  .object({
    control: z.enum(CONTROLS).optional(),
    order: z.number().int().optional(),
    group: z.string().min(1).optional(),
    advanced: z.boolean().optional(),
    sensitive: z.boolean().optional(),
  })
  .strict();

export type XSvc = z.infer<typeof XSvcSchema>;

export const ConfigPropertySchema = z
  .object({
    type: z.enum(['string', 'number', 'integer', 'boolean', 'array']).optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    default: z.unknown().optional(),
    enum: z.array(z.unknown()).optional(),
    'x-svc': XSvcSchema.optional(),
  })
  .loose();

export const ConfigSchemaDialect = z
  .object({
    $schema: z.literal('https://json-schema.org/draft/2020-12/schema'),
    $id: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    type: z.literal('object'),
    additionalProperties: z.literal(false),
    properties: z.record(z.string(), ConfigPropertySchema),
    required: z.array(z.string()).optional(),
  })
  .strict();

export type ConfigSchema = z.infer<typeof ConfigSchemaDialect>;

/** Names of the properties marked `x-svc.sensitive`. */
export function sensitiveKeys(schema: Pick<ConfigSchema, 'properties'>): string[] {
  return Object.entries(schema.properties)
    .filter(([, property]) => property['x-svc']?.sensitive === true)
    .map(([name]) => name);
}
