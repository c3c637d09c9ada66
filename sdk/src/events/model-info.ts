import { z } from 'zod';

export const ModelInfoSchema = z.object({
  id: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().optional(),
  contextWindow: z.number().int().positive().optional(),
  default: z.boolean().optional(),
});

export type ModelInfo = z.infer<typeof ModelInfoSchema>;
