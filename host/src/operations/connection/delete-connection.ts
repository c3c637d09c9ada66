import { z } from 'zod';
import { ConnectionSchema, presentConnection } from '../../features/connections/index.js';
import { defineOperation } from '../../operation-framework/index.js';

export const deleteConnection = defineOperation({
  name: 'delete_connection',
  group: 'connection',
  mcp: false,
  description: 'Remove a connection and its stored secrets; answers the removed record (masked).',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1) }).strict(),
  output: ConnectionSchema,
  http: { method: 'DELETE', path: '/api/connections/:name', status: 204 },
  cli: {
    command: 'connection remove',
    positionals: ['name'],
    expects: 'exactly one connection name',
    examples: ['svc connection remove work-claude'],
    text: (record, print) => print.line(`connection ${record.name} removed`),
  },
  handler: (input, ctx) => {
    const { connections } = ctx.services;
    const record = connections.get(input.name);
    const shown = presentConnection(record, connections.secretKeys(record.id));
    connections.remove(record.name);
    return shown;
  },
});
