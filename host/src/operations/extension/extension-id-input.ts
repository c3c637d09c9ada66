import { z } from 'zod';

/** The input of an operation on one extension; the id's grammar is checked by the registry. */
export const ExtensionIdInput = z.object({ id: z.string().min(1).max(214) }).strict();
