import { z } from 'zod';
import { ConnectionSchema, presentConnection } from '../../features/connections/index.js';
import { defineOperation } from '../../operation-framework/index.js';

export const getConnection = defineOperation({
  name: 'get_connection',
  group: 'connection',
  mcp: false,
  description: 'Show one connection, secrets masked.',
  readOnly: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1) }).strict(),
  output: ConnectionSchema,
  http: { method: 'GET', path: '/api/connections/:name' },
  handler: (input, ctx) => {
    const { connections } = ctx.services;
    const record = connections.get(input.name);
    return presentConnection(record, connections.secretKeys(record.id));
  },
});
