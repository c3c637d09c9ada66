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
  cli: {
    command: 'connection show',
    positionals: ['name'],
    expects: 'exactly one connection name',
    examples: ['svc connection show work-claude'],
    text: (shown, print) =>
      print.fields([
        ['name', shown.name],
        ['provider', shown.providerId],
        ['enabled', shown.enabled],
        ['command', shown.commandOverride ?? '(discovered)'],
        ['args', JSON.stringify(shown.baseArgs)],
        ['env', JSON.stringify(shown.env)],
        ['settings', JSON.stringify(shown.config)],
      ]),
  },
  handler: (input, ctx) => {
    const { connections } = ctx.services;
    const record = connections.get(input.name);
    return presentConnection(record, connections.secretKeys(record.id));
  },
});
