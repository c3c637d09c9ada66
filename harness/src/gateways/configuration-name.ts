import { z } from 'zod';

/** The name of a gateway or a channel, as typed on the command line and shown in lists. */
export const ConfigurationNameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, 'lowercase letters, digits, ".", "_" or "-" (up to 63)');
