// A command whose declaration prints its table from the handler's answer (`textUnchecked`, as
// `svc task list` does) neither builds nor runs its output schema for that table; `--json`, HTTP and
// MCP still answer what the schema lets through, and a declaration without it is checked as before.
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { CliIo } from '../../src/adapters/cli/cli-io.js';
import type { CliRun } from '../../src/adapters/cli/cli-command.js';
import { operationCommand } from '../../src/adapters/cli/operation-command.js';
import { defineOperation, OperationInvoker, OperationRegistry, type AnyOperation, type OperationServices } from '../../src/operation-framework/index.js';
import { styleFor } from '../../src/adapters/cli/style.js';

/** A listing whose handler answers one field the output schema does not list; counts the schema's builds. */
function listing(textUnchecked: boolean) {
  const built = { output: 0 };
  const operation = defineOperation({
    group: 'thing',
    name: 'list_things',
    description: 'List things.',
    readOnly: true,
    runsIn: 'any',
    input: z.object({}).strict(),
    get output() {
      built.output += 1;
      return z.object({ items: z.array(z.object({ name: z.string() })) });
    },
    cli: {
      command: 'thing list',
      examples: ['svc thing list'],
      json: (output) => output.items,
      ...(textUnchecked ? { textUnchecked: true as const } : {}),
      text: ({ items }, print) => print.line(items.map((item) => `${item.name}${'secret' in item ? ' (unlisted field seen)' : ''}`).join('\n')),
    },
    handler: () => ({ items: [{ name: 'one', secret: 'kept out of answers' }] }),
  });
  return { operation: operation as AnyOperation, built };
}

async function run(operation: AnyOperation, json: boolean): Promise<string> {
  let out = '';
  const stdout = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
  const io = { stdin: process.stdin, stdout, stderr: stdout, env: { NO_COLOR: '1' }, cwd: process.cwd() } as unknown as CliIo;
  const invoker = new OperationInvoker({ registry: new OperationRegistry([operation]), services: async () => ({}) as OperationServices, caller: { via: 'cli' } });
  const command = operationCommand(operation, operation.cli!);
  const signal = new AbortController().signal;
  const cliRun = {
    io,
    signal,
    values: json ? { json: true } : {},
    positionals: [],
    args: [],
    json,
    style: styleFor(stdout, { NO_COLOR: '1' }),
    open: () => Promise.reject(new Error('not used')),
    invoke: (op, input, progress, options) => invoker.invoke(op, input, signal, progress, options),
    allCommands: () => Promise.reject(new Error('not used')),
  } as CliRun;
  expect(await command.run(cliRun)).toBe(0);
  return out;
}

describe('a table printed from the handler\'s answer', () => {
  test('the table is printed without building the output schema', async () => {
    const { operation, built } = listing(true);
    expect(await run(operation, false)).toBe('one (unlisted field seen)\n');
    expect(built.output).toBe(0);
  });

  test('--json still prints only what the output schema lets through', async () => {
    const { operation, built } = listing(true);
    expect(JSON.parse(await run(operation, true))).toEqual([{ name: 'one' }]);
    expect(built.output).toBeGreaterThan(0);
  });

  test('a declaration that does not say so has its answer checked for the table too', async () => {
    const { operation, built } = listing(false);
    expect(await run(operation, false)).toBe('one\n');
    expect(built.output).toBeGreaterThan(0);
  });
});
