import { z } from 'zod';

/** Columns and rows of a terminal window. */
export const TerminalSize = {
  cols: z.number().int().min(2).max(1000).optional(),
  rows: z.number().int().min(2).max(1000).optional(),
};
