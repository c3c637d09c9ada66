// A CLI command whose flags come from its operation's declaration: each field of the input schema is
// a `--kebab-case` flag of the type it declares (a boolean a switch, an array a repeatable flag), its
// description the schema's. The declaration's `cli` part (operation-cli.ts) adds only what the schema
// cannot say: the command's path, which fields are positionals, fixed values (the `action` of a
// manage_* operation), flags that depart from their field's (a name, a short alias, a name resolved
// to an id), and how a person reads the answer.
import { resolve } from 'node:path';
import type { z } from 'zod';
import { decodeStringInput, type AnyOperation, type CliResolvable, type OperationCli, type OperationCliPrinter } from '../../operation-framework/index.js';
import type { CliCommand, CliOption, CliRun } from './cli-command.js';
import { commandUsage } from './command-usage.js';
import { printFields } from './print-fields.js';
import { printJson } from './print-json.js';
import { positiveId } from './positive-id.js';
import { printTable } from './print-table.js';
import { UsageError } from './usage-error.js';

interface FieldDef {
  type: string;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  element?: z.ZodType;
}

const def = (schema: z.ZodType) => (schema as unknown as { _zod: { def: FieldDef } })._zod.def;

/** The type a field finally has, through optional/default/nullable/pipe wrappers. */
function baseType(schema: z.ZodType): string {
  const d = def(schema);
  if (d.innerType) return baseType(d.innerType);
  if (d.type === 'pipe' && d.in) return baseType(d.in);
  if (d.type === 'union' && d.options) {
    const types = new Set(d.options.map(baseType));
    return types.has('string') ? 'string' : [...types][0]!;
  }
  return d.type;
}

const kebab = (field: string) => field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const describe = (schema: z.ZodType) => (schema as { description?: string }).description;

function shapeOf(operation: AnyOperation): Record<string, z.ZodType> {
  const shape = (operation.input as unknown as { _zod: { def: { shape?: Record<string, z.ZodType> } } })._zod.def.shape;
  if (!shape) throw new Error(`operation ${operation.name} has no object input: it cannot be a generated command`);
  return shape;
}

const positionalName = (field: string) => field.replace(/^\.\.\./, '');

function optionsOf(operation: AnyOperation, cli: OperationCli): { options: Record<string, CliOption>; flags: Map<string, string> } {
  const shape = shapeOf(operation);
  const skip = new Set([...(cli.positionals ?? []).map(positionalName), ...Object.keys(cli.fixed ?? {}), ...(cli.omit ?? [])]);
  const flags = new Map<string, string>();
  const options: Record<string, CliOption> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (skip.has(field)) continue;
    const type = baseType(schema);
    const custom = cli.flags?.[field] ?? {};
    const flag = custom.flag ?? custom.resolve ?? kebab(field);
    flags.set(flag, field);
    options[flag] = {
      type: type === 'boolean' ? 'boolean' : 'string',
      ...(type === 'array' ? { multiple: true } : {}),
      ...(custom.short ? { short: custom.short } : {}),
      ...(type === 'boolean' ? {} : { value: custom.value ?? (custom.resolve ? '<id|name>' : type === 'number' ? '<n>' : `<${kebab(field)}>`) }),
      description: custom.description ?? describe(schema) ?? (custom.resolve ? `the ${custom.resolve}` : `the ${kebab(field).replace(/-/g, ' ')}`),
    };
    if (custom.clear) options[custom.clear.flag] = { type: 'boolean', description: custom.clear.description };
  }
  return { options, flags };
}

/** The input the positional arguments give, or a usage error. */
function positionalInput(operation: AnyOperation, cli: OperationCli, command: CliCommand, run: CliRun): Record<string, unknown> {
  const positionals = cli.positionals ?? [];
  const last = positionals.at(-1);
  const restField = last?.startsWith('...') ? positionalName(last) : undefined;
  const restIsList = restField !== undefined && baseType(shapeOf(operation)[restField]!) === 'array';
  const least = restIsList ? positionals.length - 1 : positionals.length;
  if (restField ? run.positionals.length < least : run.positionals.length !== positionals.length) {
    throw new UsageError(`expected ${positionals.length === 0 ? 'no arguments' : command.positionals}\nusage: ${commandUsage(command)}`);
  }
  const raw: Record<string, unknown> = {};
  positionals.forEach((field, index) => {
    if (field !== last || !restField) raw[field] = idChecked(operation, field, run.positionals[index]!, field === 'id' ? `${command.group} id` : kebab(field).replace(/-/g, ' '));
    else raw[restField] = restIsList ? run.positionals.slice(index) : run.positionals.slice(index).join(' ');
  });
  return raw;
}

/**
 * The command of an operation as its `cli` part says (`operation.cli`), or a second command over it
 * with a fixed input (`svc fact set` and `svc fact delete` over `manage_project_facts`).
 */
export function operationCommand(operation: AnyOperation, cli: OperationCli): CliCommand {
  const { options, flags } = optionsOf(operation, cli);
  const [group, ...name] = cli.command.split(' ');
  const command: CliCommand = {
    group: group!,
    name: name.join(' '),
    operation,
    ...(cli.description ? { description: cli.description } : {}),
    positionals: cli.usage ?? (cli.positionals ?? []).map((field) => (field.startsWith('...') && baseType(shapeOf(operation)[positionalName(field)]!) === 'array' ? `[<${kebab(positionalName(field))}>...]` : `<${kebab(positionalName(field))}>`)).join(' '),
    options,
    json: true,
    ...(cli.extensions === false ? { extensions: false as const } : {}),
    ...(cli.plugins ? { plugins: true as const } : {}),
    examples: [...cli.examples],
    async run(run) {
      const raw: Record<string, unknown> = { ...cli.fixed, ...positionalInput(operation, cli, command, run) };
      for (const [flag, field] of flags) {
        const value = flagValue(cli, flag, field, command, run);
        if (value === undefined) continue;
        if (value === CLEARED) {
          raw[field] = cli.flags![field]!.clear!.value;
          continue;
        }
        const custom = cli.flags?.[field];
        if (typeof value !== 'string') raw[field] = value;
        else if (custom?.resolve) raw[field] = await resolveId(run, custom.resolve, value);
        else if (custom?.folder) raw[field] = resolve(run.io.cwd, value);
        else raw[field] = idChecked(operation, field, value, `--${flag}`);
      }
      const output: unknown = await run.invoke(operation, decodeStringInput(operation.input, raw));
      if (run.json) printJson(run.io, cli.json ? cli.json(output) : output);
      else if (cli.text) cli.text(output, printerOf(run));
      else presentRecord(output, run);
      return 0;
    },
  };
  return command;
}

const CLEARED = Symbol('cleared');

/** A flag's value as typed, CLEARED when its clearing switch is on, or a usage error (both given, or a required one left out). */
function flagValue(cli: OperationCli, flag: string, field: string, command: CliCommand, run: CliRun): CliRun['values'][string] | typeof CLEARED {
  const value = run.values[flag];
  const clear = cli.flags?.[field]?.clear;
  if (clear && run.values[clear.flag]) {
    if (value !== undefined) throw new UsageError(`--${flag} and --${clear.flag} exclude each other`);
    return CLEARED;
  }
  if (value === undefined && !shapeOf(command.operation!)[field]!.safeParse(undefined).success) {
    throw new UsageError(`--${flag} is required\nusage: ${commandUsage(command)}`);
  }
  return value;
}

/** A record's id as typed (`12`), or a usage error naming what was typed where an id belongs. */
function idChecked(operation: AnyOperation, field: string, value: string, what: string): string | number {
  const schema = shapeOf(operation)[field];
  if (!schema || !numberOnly(schema)) return value;
  if (field === 'id' || field.endsWith('Id')) return positiveId(value, what);
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw new UsageError(`${what} takes a number, got "${value}"`);
  return value;
}

/** A field that takes a number and nothing else (not a record's id or name). */
function numberOnly(schema: z.ZodType): boolean {
  const d = def(schema);
  if (d.innerType) return numberOnly(d.innerType);
  if (d.type === 'pipe' && d.in) return numberOnly(d.in);
  return d.type === 'number';
}

/** The CLI's printer, as a declaration's text renderer writes with it. */
function printerOf(run: CliRun): OperationCliPrinter {
  return {
    line: (text) => run.io.stdout.write(`${text}\n`),
    note: (text) => run.io.stderr.write(`${text}\n`),
    table: (header, rows) => printTable(run.io, header, rows, run.style),
    fields: (fields) => printFields(run.io, fields),
  };
}

/** `app` or `12` to the id; the operation itself checks that it exists. */
async function resolveId(run: CliRun, kind: CliResolvable, value: string): Promise<number> {
  if (/^\d+$/.test(value)) return Number(value);
  // Imported on use: a command that resolves no name evaluates neither group (`svc task list` names only its own).
  if (kind === 'project') return (await run.invoke((await import('../../operations/project/index.js')).getProject, { id: value })).id;
  return (await run.invoke((await import('../../operations/workspace/index.js')).getWorkspace, { id: value })).id;
}

const cell = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** A list as a table of its scalar fields, a record as one line per field. */
export function presentRecord(output: unknown, run: CliRun): void {
  const record = (output ?? {}) as Record<string, unknown>;
  const lists = Object.entries(record).filter(([, value]) => Array.isArray(value));
  const scalars = Object.entries(record).filter(([, value]) => !Array.isArray(value));
  const width = Math.max(0, ...scalars.map(([key]) => key.length));
  for (const [key, value] of scalars) run.io.stdout.write(`${key.padEnd(width)}  ${cell(value)}\n`);
  for (const [key, value] of lists) {
    const items = value as unknown[];
    if (lists.length > 1 || scalars.length > 0) run.io.stdout.write(`${key} (${items.length})\n`);
    if (items.length === 0) {
      if (lists.length === 1 && scalars.length === 0) run.io.stdout.write(`no ${key}\n`);
      continue;
    }
    if (typeof items[0] !== 'object' || items[0] === null) {
      for (const item of items) run.io.stdout.write(`  ${cell(item)}\n`);
      continue;
    }
    const columns = Object.keys(items[0] as object).filter((column) => items.every((item) => typeof (item as Record<string, unknown>)[column] !== 'object' || (item as Record<string, unknown>)[column] === null)).slice(0, 7);
    printTable(run.io, columns.map((column) => kebab(column).toUpperCase()), items.map((item) => columns.map((column) => cell((item as Record<string, unknown>)[column]).slice(0, 80))), run.style);
  }
}
