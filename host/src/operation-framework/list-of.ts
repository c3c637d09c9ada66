import { z } from 'zod';

/** `{ items: [...] }`: every list answer has this shape, so it can grow fields without breaking. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item) });
}
