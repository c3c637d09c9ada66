import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { entityNameSchema } from './entity-name.js';
import { spelledEnum } from './spelled-enum.js';
import { TASK_STATUSES } from './task-status.js';

/** A row's label names, stored as a JSON array (built once, at the first row: a schema is dear to build per row). */
const labelNamesSchema = builtOnFirstUse(() => z.array(z.string()));

// Built at its first parse (z.lazy): a command that reads no task row never constructs it.
export const TaskRowSchema = z.lazy(() =>
  z
    .object({
      id: z.number(),
      project_id: z.number(),
      parent_task_id: z.number().nullable(),
      title: z.string(),
      description: z.string(),
      status: z.enum(TASK_STATUSES),
      unattended: z.number(),
      labels: z.string().transform((text) => labelNamesSchema().parse(JSON.parse(text))),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .transform((row) => ({
      id: row.id,
      projectId: row.project_id,
      parentTaskId: row.parent_task_id,
      title: row.title,
      description: row.description,
      status: row.status,
      labels: row.labels,
      /** Shadow of the signal file (authoritative); kept for one migration window. */
      unattended: row.unattended === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
);

export type TaskRecord = z.output<typeof TaskRowSchema>;

/** Columns of a task plus its label names in name order. */
export const TASK_SELECT = `SELECT t.*, (
  SELECT json_group_array(name) FROM (
    SELECT l.name FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id ORDER BY l.name
  )
) AS labels FROM tasks t`;

// The inputs of a task's create, update and list, built at their first use: a command that only
// reads tasks (`svc task list`) never constructs them.
const titleSchema = builtOnFirstUse(() => z.string().trim().min(1, 'a title cannot be empty').max(500, 'a title is at most 500 characters'));
const descriptionSchema = builtOnFirstUse(() => z.string().max(100_000, 'a description is at most 100,000 characters'));
const labelsSchema = builtOnFirstUse(() => z.array(entityNameSchema()).max(50));

export const taskCreateSchema = builtOnFirstUse(() =>
  z
    .object({
      projectId: z.number().int().positive(),
      title: titleSchema(),
      description: descriptionSchema().default(''),
      status: spelledEnum(TASK_STATUSES).default('TODO'),
      parentTaskId: z.number().int().positive().nullable().default(null),
      labels: labelsSchema().default([]),
      unattended: z.boolean().default(false),
    })
    .strict(),
);

export const taskUpdateSchema = builtOnFirstUse(() =>
  z
    .object({
      title: titleSchema().optional(),
      description: descriptionSchema().optional(),
      status: spelledEnum(TASK_STATUSES).optional(),
      /** `null` detaches the task from its parent. */
      parentTaskId: z.number().int().positive().nullable().optional(),
      labels: labelsSchema().optional(),
      unattended: z.boolean().optional(),
    })
    .strict(),
);

export type TaskCreate = z.input<ReturnType<typeof taskCreateSchema>>;
export type TaskUpdate = z.input<ReturnType<typeof taskUpdateSchema>>;

export const taskListFilterSchema = builtOnFirstUse(() =>
  z
    .object({
      projectId: z.coerce.number().int().positive().optional(),
      status: spelledEnum(TASK_STATUSES).optional(),
      parentTaskId: z.coerce.number().int().positive().optional(),
    })
    .strict(),
);
export type TaskListFilter = z.output<ReturnType<typeof taskListFilterSchema>>;

/** A task as every adapter shows it (built at its first use: a listing printed as a table checks no answer with it). */
export const taskSchema = builtOnFirstUse(() =>
  z.object({
    id: z.number().int(),
    projectId: z.number().int(),
    parentTaskId: z.number().int().nullable(),
    title: z.string(),
    description: z.string(),
    status: z.enum(TASK_STATUSES),
    labels: z.array(z.string()),
    unattended: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
