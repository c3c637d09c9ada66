import { z } from 'zod';

/** A row id: a positive integer. */
export const IdSchema = z.number().int().positive();
