import { z } from 'zod';
import { ConnectionSchema, presentConnection } from '../../features/connections/index.js';
import { defineOperation, listOf } from '../../operation-framework/index.js';

export const listConnections = defineOperation({
  name: 'list_connections',
  group: 'connection',
  mcp: false,
  description: 'List connections (named ways to run a provider), secrets masked.',
  readOnly: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: listOf(ConnectionSchema),
  http: { method: 'GET', path: '/api/connections' },
  cli: {
    command: 'connection list',
    examples: ['svc connection list'],
    json: (output) => output.items,
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no connections (add one with `svc connection add <name> --provider <id>`)');
      for (const r of items) print.line(`${r.name.padEnd(20)} ${r.providerId.padEnd(28)} ${r.enabled ? 'enabled' : 'disabled'}`);
    },
  },
  handler: (_input, ctx) => {
    const { connections } = ctx.services;
    return { items: connections.list().map((record) => presentConnection(record, connections.secretKeys(record.id))) };
  },
});
