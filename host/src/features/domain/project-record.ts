import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { entityNameSchema } from './entity-name.js';

// Built at its first parse (z.lazy): a command that reads no project row never constructs it.
export const ProjectRowSchema = z.lazy(() =>
  z
    .object({
      id: z.number(),
      workspace_id: z.number(),
      name: z.string(),
      repo_path: z.string(),
      description: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .transform((row) => ({
      id: row.id,
      workspaceId: row.workspace_id,
      name: row.name,
      repoPath: row.repo_path,
      description: row.description,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
);

export type ProjectRecord = z.output<typeof ProjectRowSchema>;

// The inputs of a project's create and update, built at their first use.
const repoPathSchema = builtOnFirstUse(() => z.string().min(1, 'the repository path cannot be empty').max(4096));

export const projectCreateSchema = builtOnFirstUse(() =>
  z
    .object({
      workspaceId: z.number().int().positive(),
      name: entityNameSchema(),
      repoPath: repoPathSchema(),
      description: z.string().max(10_000).default(''),
    })
    .strict(),
);
export const projectUpdateSchema = builtOnFirstUse(() =>
  z.object({ name: entityNameSchema().optional(), repoPath: repoPathSchema().optional(), description: z.string().max(10_000).optional() }).strict(),
);
export type ProjectCreate = z.input<ReturnType<typeof projectCreateSchema>>;
export type ProjectUpdate = z.input<ReturnType<typeof projectUpdateSchema>>;

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
/** A project as every adapter shows it. */
export const ProjectSchema = z.lazy(() =>
  z.object({
    id: z.number().int(),
    workspaceId: z.number().int(),
    name: z.string(),
    repoPath: z.string(),
    description: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
