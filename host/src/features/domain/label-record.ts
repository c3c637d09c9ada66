import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { entityNameSchema } from './entity-name.js';

// Built at its first parse (z.lazy): a command that reads no label row never constructs it.
export const LabelRowSchema = z.lazy(() =>
  z
    .object({ id: z.number(), project_id: z.number(), name: z.string(), color: z.string().nullable(), created_at: z.string() })
    .transform((row) => ({ id: row.id, projectId: row.project_id, name: row.name, color: row.color, createdAt: row.created_at })),
);

export type LabelRecord = z.output<typeof LabelRowSchema>;

// The inputs of a label's create and update, built at their first use.
const colorSchema = builtOnFirstUse(() => z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a color is #rrggbb'));

export const labelCreateSchema = builtOnFirstUse(() =>
  z.object({ projectId: z.number().int().positive(), name: entityNameSchema(), color: colorSchema().nullable().default(null) }).strict(),
);
export const labelUpdateSchema = builtOnFirstUse(() => z.object({ name: entityNameSchema().optional(), color: colorSchema().nullable().optional() }).strict());
export type LabelCreate = z.input<ReturnType<typeof labelCreateSchema>>;
export type LabelUpdate = z.input<ReturnType<typeof labelUpdateSchema>>;

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
/** A label as every adapter shows it. */
export const LabelSchema = z.lazy(() => z.object({ id: z.number().int(), projectId: z.number().int(), name: z.string(), color: z.string().nullable(), createdAt: z.string() }));
