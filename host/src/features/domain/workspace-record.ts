import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { entityNameSchema } from './entity-name.js';

// Built at its first parse (z.lazy): a command that reads no workspace row never constructs it.
export const WorkspaceRowSchema = z.lazy(() =>
  z
    .object({ id: z.number(), name: z.string(), description: z.string(), created_at: z.string(), updated_at: z.string() })
    .transform((row) => ({ id: row.id, name: row.name, description: row.description, createdAt: row.created_at, updatedAt: row.updated_at })),
);

export type WorkspaceRecord = z.output<typeof WorkspaceRowSchema>;

// The inputs of a workspace's create and update, built at their first use.
export const workspaceCreateSchema = builtOnFirstUse(() => z.object({ name: entityNameSchema(), description: z.string().max(10_000).default('') }).strict());
export const workspaceUpdateSchema = builtOnFirstUse(() =>
  z.object({ name: entityNameSchema().optional(), description: z.string().max(10_000).optional() }).strict(),
);
export type WorkspaceCreate = z.input<ReturnType<typeof workspaceCreateSchema>>;
export type WorkspaceUpdate = z.input<ReturnType<typeof workspaceUpdateSchema>>;

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
/** A workspace as every adapter shows it. */
export const WorkspaceSchema = z.lazy(() => z.object({ id: z.number().int(), name: z.string(), description: z.string(), createdAt: z.string(), updatedAt: z.string() }));
