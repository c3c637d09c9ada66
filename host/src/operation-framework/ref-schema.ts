import { z } from 'zod';
import { IdSchema } from './id-schema.js';

/** An id, or a name (names are never all digits, so the two cannot be confused). */
export const RefSchema = z.union([IdSchema, z.string().trim().min(1).max(100)]);
