import { z } from 'zod';
import { EntityNameSchema } from './entity-name.js';

// Built at its first parse (z.lazy): a command that reads no workspace row never constructs it.
export const WorkspaceRowSchema = z.lazy(() =>
  z
    .object({ id: z.number(), name: z.string(), description: z.string(), created_at: z.string(), updated_at: z.string() })
    .transform((row) => ({ id: row.id, name: row.name, description: row.description, createdAt: row.created_at, updatedAt: row.updated_at })),
);

export type WorkspaceRecord = z.output<typeof WorkspaceRowSchema>;

export const WorkspaceCreateSchema = z.object({ name: EntityNameSchema, description: z.string().max(10_000).default('') }).strict();
export const WorkspaceUpdateSchema = z.object({ name: EntityNameSchema.optional(), description: z.string().max(10_000).optional() }).strict();
export type WorkspaceCreate = z.input<typeof WorkspaceCreateSchema>;
export type WorkspaceUpdate = z.input<typeof WorkspaceUpdateSchema>;

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
/** A workspace as every adapter shows it. */
export const WorkspaceSchema = z.lazy(() => z.object({ id: z.number().int(), name: z.string(), description: z.string(), createdAt: z.string(), updatedAt: z.string() }));
