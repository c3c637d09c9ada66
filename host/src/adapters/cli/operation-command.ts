// A CLI command whose flags come from its operation's declaration: each field of the input schema is
// a `--kebab-case` flag of the type it declares (a boolean a switch, an array a repeatable flag), its
// description the schema's. The command adds only what a declaration cannot say: which fields are
// positionals, fixed values (the `action` of a manage_* operation), which flags accept a name that is
// resolved to an id, and how a person reads the answer.
import type { z } from 'zod';
import { decodeStringInput, type AnyOperation } from '../../operation-framework/index.js';
// By group, not through the registry (app/all-operations.ts): a command evaluates only the declarations it uses.
import { getProject } from '../../operations/project/index.js';
import { getWorkspace } from '../../operations/workspace/index.js';
import type { CliCommand, CliOption, CliRun } from './cli-command.js';
import { commandUsage } from './command-usage.js';
import { printJson } from './print-json.js';
import { printTable } from './print-table.js';
import { UsageError } from './usage-error.js';

/** Flags that take an id or a name, resolved to the id the operation takes. */
type Resolvable = 'project' | 'workspace';

export interface OperationCommandSpec {
  group: string;
  name: string;
  operation: AnyOperation;
  /** Input fields taken from positional arguments, in order (a trailing `...` field takes the rest as text). */
  positionals?: string[];
  /** Input values the command sets itself. */
  fixed?: Record<string, unknown>;
  /** Input fields not offered as flags. */
  omit?: string[];
  /** Input fields whose flag takes an id or a name. */
  resolve?: Record<string, Resolvable>;
  description?: string;
  examples: string[];
  /** How a person reads the answer (default: a table of `items`, or one line per field). */
  present?(output: unknown, run: CliRun): void;
}

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

export function operationCommand(spec: OperationCommandSpec): CliCommand {
  const shape = shapeOf(spec.operation);
  const skip = new Set([...(spec.positionals ?? []).map((field) => field.replace(/^\.\.\./, '')), ...Object.keys(spec.fixed ?? {}), ...(spec.omit ?? [])]);
  const flags = new Map<string, string>();
  const options: Record<string, CliOption> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (skip.has(field)) continue;
    const type = baseType(schema);
    const resolvable = spec.resolve?.[field];
    const flag = resolvable ?? kebab(field);
    flags.set(flag, field);
    options[flag] = {
      type: type === 'boolean' ? 'boolean' : 'string',
      ...(type === 'array' ? { multiple: true } : {}),
      ...(type === 'boolean' ? {} : { value: resolvable ? '<id|name>' : type === 'number' ? '<n>' : `<${kebab(field)}>` }),
      description: describe(schema) ?? (resolvable ? `the ${resolvable}` : `the ${kebab(field).replace(/-/g, ' ')}`),
    };
  }
  const command: CliCommand = {
    group: spec.group,
    name: spec.name,
    operation: spec.operation,
    ...(spec.description ? { description: spec.description } : {}),
    positionals: (spec.positionals ?? []).map((field) => `<${kebab(field.replace(/^\.\.\./, ''))}>`).join(' '),
    options,
    json: true,
    examples: spec.examples,
    async run(run) {
      const raw: Record<string, unknown> = { ...spec.fixed };
      const positionals = spec.positionals ?? [];
      const rest = positionals.at(-1)?.startsWith('...');
      if (rest ? run.positionals.length < positionals.length : run.positionals.length !== positionals.length) {
        throw new UsageError(`expected ${positionals.length === 0 ? 'no arguments' : positionals.map((p) => `<${kebab(p.replace(/^\.\.\./, ''))}>`).join(' ')}\nusage: ${commandUsage(command)}`);
      }
      positionals.forEach((field, index) => {
        if (field.startsWith('...')) raw[field.slice(3)] = run.positionals.slice(index).join(' ');
        else raw[field] = run.positionals[index];
      });
      for (const [flag, field] of flags) {
        const value = run.values[flag];
        if (value === undefined) continue;
        const resolvable = spec.resolve?.[field];
        if (resolvable && typeof value === 'string') raw[field] = await resolveId(run, resolvable, value);
        else raw[field] = value;
      }
      const output = await run.invoke(spec.operation, decodeStringInput(spec.operation.input, raw));
      if (run.json) printJson(run.io, output);
      else if (spec.present) spec.present(output, run);
      else presentRecord(output, run);
      return 0;
    },
  };
  return command;
}

/** `app` or `12` to the id; the operation itself checks that it exists. */
async function resolveId(run: CliRun, kind: Resolvable, value: string): Promise<number> {
  if (/^\d+$/.test(value)) return Number(value);
  const record = kind === 'project' ? await run.invoke(getProject, { id: value }) : await run.invoke(getWorkspace, { id: value });
  return record.id;
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
