import { z } from 'zod';
import { EntityNameSchema } from './entity-name.js';

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

const RepoPathSchema = z.string().min(1, 'the repository path cannot be empty').max(4096);

export const ProjectCreateSchema = z
  .object({
    workspaceId: z.number().int().positive(),
    name: EntityNameSchema,
    repoPath: RepoPathSchema,
    description: z.string().max(10_000).default(''),
  })
  .strict();
export const ProjectUpdateSchema = z
  .object({ name: EntityNameSchema.optional(), repoPath: RepoPathSchema.optional(), description: z.string().max(10_000).optional() })
  .strict();
export type ProjectCreate = z.input<typeof ProjectCreateSchema>;
export type ProjectUpdate = z.input<typeof ProjectUpdateSchema>;

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
