import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';

/**
 * Names of workspaces, projects and labels. All-digit names are refused because the CLI accepts
 * an id or a name in the same place. Built at its first use, with the inputs that name one.
 */
export const entityNameSchema = builtOnFirstUse(() =>
  z
    .string()
    .trim()
    .min(1, 'a name cannot be empty')
    .max(100, 'a name is at most 100 characters')
    .refine((name) => !/^\d+$/.test(name), 'a name cannot be only digits (it would read as an id)'),
);
