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
import { terminalLine } from './terminal-text.js';
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

const positionalName = (field: string) => field.replace(/^\.\.\./, '').replace(/\?$/, '');

/** An input field offered as a flag: the flag's name, or none when only its `clear` switch sets it. */
interface FlagField {
  field: string;
  flag?: string;
}

function optionsOf(operation: AnyOperation, cli: OperationCli): { options: Record<string, CliOption>; fields: FlagField[] } {
  const shape = shapeOf(operation);
  const skip = new Set([...(cli.positionals ?? []).map(positionalName), ...Object.keys(cli.fixed ?? {}), ...(cli.omit ?? [])]);
  const fields: FlagField[] = [];
  const options: Record<string, CliOption> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (skip.has(field)) continue;
    const type = baseType(schema);
    const custom = cli.flags?.[field] ?? {};
    const flag = custom.flag === false ? undefined : (custom.flag ?? custom.resolve ?? kebab(field));
    fields.push({ field, ...(flag ? { flag } : {}) });
    if (flag) {
      options[flag] = {
        type: type === 'boolean' ? 'boolean' : 'string',
        ...(type === 'array' || custom.pairs ? { multiple: true } : {}),
        ...(custom.short ? { short: custom.short } : {}),
        ...(type === 'boolean' ? {} : { value: custom.value ?? (custom.resolve ? '<id|name>' : custom.pairs ? 'KEY=VALUE' : type === 'number' ? '<n>' : `<${kebab(field)}>`) }),
        description: custom.description ?? describe(schema) ?? (custom.resolve ? `the ${custom.resolve}` : `the ${kebab(field).replace(/-/g, ' ')}`),
      };
    }
    if (custom.clear) options[custom.clear.flag] = { type: 'boolean', description: custom.clear.description };
    if (typeof custom.pairs === 'object') options[custom.pairs.unset.flag] = { type: 'string', multiple: true, value: '<key>', description: custom.pairs.unset.description };
  }
  return { options: inOrder(options, cli.order ?? [], operation), fields };
}

/** The options with the ones `order` names first, in its order; a name that is no flag is a mistake caught at load. */
function inOrder(options: Record<string, CliOption>, order: readonly string[], operation: AnyOperation): Record<string, CliOption> {
  const stray = order.filter((flag) => !(flag in options));
  if (stray.length > 0) throw new Error(`operation ${operation.name}: cli.order names no flag: ${stray.join(', ')}`);
  return Object.fromEntries([...order.map((flag) => [flag, options[flag]!] as const), ...Object.entries(options).filter(([flag]) => !order.includes(flag))]);
}

/** The input the positional arguments give, or a usage error. */
function positionalInput(operation: AnyOperation, cli: OperationCli, command: CliCommand, run: CliRun): Record<string, unknown> {
  const positionals = cli.positionals ?? [];
  const last = positionals.at(-1);
  const restField = last?.startsWith('...') ? positionalName(last) : undefined;
  const restIsList = restField !== undefined && baseType(shapeOf(operation)[restField]!) === 'array';
  const optional = last?.endsWith('?') === true;
  const least = restIsList || optional ? positionals.length - 1 : positionals.length;
  if (run.positionals.length < least || (!restField && run.positionals.length > positionals.length)) {
    throw new UsageError(`expected ${cli.expects ?? (positionals.length === 0 ? 'no arguments' : command.positionals)}\nusage: ${commandUsage(command)}`);
  }
  const raw: Record<string, unknown> = {};
  positionals.forEach((field, index) => {
    const typed = run.positionals[index];
    if (field === last && restField) raw[restField] = restIsList ? run.positionals.slice(index) : run.positionals.slice(index).join(' ');
    else if (typed !== undefined) raw[positionalName(field)] = idChecked(operation, positionalName(field), typed, field === 'id' || field === 'id?' ? `${command.group} id` : kebab(positionalName(field)).replace(/-/g, ' '));
  });
  return raw;
}

/** `<field>` in the usage line: `[<field>...]` for a last list, `[<field>]` for a last optional one. */
function positionalUsage(operation: AnyOperation, field: string): string {
  const name = `<${kebab(positionalName(field))}>`;
  if (field.endsWith('?')) return `[${name}]`;
  return field.startsWith('...') && baseType(shapeOf(operation)[positionalName(field)]!) === 'array' ? `[${name}...]` : name;
}

/**
 * The command of an operation as its `cli` part says (`operation.cli`), or a second command over it
 * with a fixed input (`svc fact set` and `svc fact delete` over `manage_project_facts`).
 */
export function operationCommand(operation: AnyOperation, cli: OperationCli): CliCommand {
  const { options, fields } = optionsOf(operation, cli);
  const [group, ...name] = cli.command.split(' ');
  const command: CliCommand = {
    group: group!,
    name: name.join(' '),
    operation,
    ...(cli.description ? { description: cli.description } : {}),
    positionals: cli.usage ?? (cli.positionals ?? []).map((field) => positionalUsage(operation, field)).join(' '),
    options,
    json: true,
    ...(cli.extensions === false ? { extensions: false as const } : {}),
    ...(cli.extensions === false && operation.readOnly && !cli.plugins ? { readsOnly: true as const } : {}),
    ...(cli.plugins ? { plugins: true as const } : {}),
    examples: [...cli.examples],
    async run(run) {
      requireFlags(cli, fields, command, run);
      const raw: Record<string, unknown> = { ...cli.fixed, ...positionalInput(operation, cli, command, run) };
      for (const { field, flag } of fields) {
        const custom = cli.flags?.[field];
        if (custom?.pairs) {
          const record = pairsOf(run, flag!, custom.value ?? 'KEY=VALUE', typeof custom.pairs === 'object' ? custom.pairs.unset.flag : undefined);
          if (record) raw[field] = record;
          continue;
        }
        const value = flagValue(cli, flag, field, command, run);
        if (value === undefined) continue;
        if (value === CLEARED) {
          raw[field] = custom!.clear!.value;
          continue;
        }
        if (typeof value !== 'string') raw[field] = value;
        else if (custom?.resolve) raw[field] = await resolveId(run, custom.resolve, value);
        else if (custom?.folder) raw[field] = resolve(run.io.cwd, value);
        else raw[field] = idChecked(operation, field, value, `--${flag!}`);
      }
      const asBuilt = cli.textUnchecked === true && cli.text !== undefined && !run.json;
      const output: unknown = await run.invoke(operation, decodeStringInput(operation.input, raw), undefined, asBuilt ? { checkOutput: false } : undefined);
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
function flagValue(cli: OperationCli, flag: string | undefined, field: string, command: CliCommand, run: CliRun): CliRun['values'][string] | typeof CLEARED {
  const value = flag ? run.values[flag] : undefined;
  const clear = cli.flags?.[field]?.clear;
  if (clear && run.values[clear.flag]) {
    if (value !== undefined) throw new UsageError(`--${flag!} and --${clear.flag} exclude each other`);
    return CLEARED;
  }
  if (flag && value === undefined && !shapeOf(command.operation!)[field]!.safeParse(undefined).success) {
    throw new UsageError(`--${flag} is required\nusage: ${commandUsage(command)}`);
  }
  return value;
}

/** The flags the declaration says a person must type, checked before the arguments: a usage error shows the command with them. */
function requireFlags(cli: OperationCli, fields: readonly FlagField[], command: CliCommand, run: CliRun): void {
  const required = fields.filter(({ field, flag }) => flag && cli.flags?.[field]?.required);
  const missing = required.find(({ flag }) => run.values[flag!] === undefined);
  if (!missing) return;
  const usage = ['svc', command.group, command.name, command.positionals ?? '', ...required.map(({ flag }) => `--${flag!} ${command.options[flag!]!.value ?? '<value>'}`)];
  throw new UsageError(`--${missing.flag!} is required\nusage: ${usage.filter(Boolean).join(' ')}`);
}

/** `KEY=VALUE` pairs typed with a flag (and keys removed with its `unset` flag) as a record, undefined when none is typed. */
function pairsOf(run: CliRun, flag: string, keyRule: string, unsetFlag: string | undefined): Record<string, string | null> | undefined {
  const typed = run.values[flag] as string[] | undefined;
  const unset = unsetFlag ? (run.values[unsetFlag] as string[] | undefined) : undefined;
  if (!typed && !unset) return undefined;
  const record: Record<string, string | null> = {};
  for (const pair of typed ?? []) {
    const eq = pair.indexOf('=');
    // The key typed, never the value: it may be a secret.
    if (eq <= 0) throw new UsageError(`--${flag} takes ${keyRule} (got "${pair.split('=')[0]}")`);
    record[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  for (const key of unset ?? []) record[key] = null;
  return record;
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
    outside: (text) => run.io.stdout.write(`${terminalLine(text)}\n`),
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
