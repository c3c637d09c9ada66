import type { z } from 'zod';
import type { HostServices } from '../../host-services.js';
import type { AnyOperation, InvokeOptions, OperationProgress } from '../../operation-framework/index.js';
import type { CliIo } from './cli-io.js';
import type { Style } from './style.js';

/** One option of a command, as its parser takes it and its `--help` shows it. */
export interface CliOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The value's placeholder in help, e.g. `<id|name>`. */
  value?: string;
  description: string;
}

export type CliValues = Record<string, string | boolean | string[] | undefined>;

/** What a command's `run` works with. */
export interface CliRun {
  io: CliIo;
  signal: AbortSignal;
  values: CliValues;
  positionals: string[];
  /** `--json`: print the record or result as JSON, nothing else on stdout. */
  json: boolean;
  style: Style;
  /** Runs an operation here, or in the service when it must run there. */
  invoke<O extends AnyOperation>(operation: O, input: z.input<O['input']>, progress?: OperationProgress, options?: InvokeOptions): Promise<z.output<O['output']>>;
  /** The host's services in this process (opened on first use). */
  open(): Promise<HostServices>;
  /** The raw arguments after the command's name, for commands that parse their own. */
  args: string[];
  /** Every command of the executable, loaded (the completion script lists them, itself included). */
  allCommands(): Promise<readonly CliCommand[]>;
}

/**
 * A command of the `svc` executable: `svc <group> <name>` (or `svc <group>` when `name` is empty).
 * Commands over an operation take their description from it; `--help` is generated from this.
 */
export interface CliCommand {
  group: string;
  name: string;
  /** The operation it runs, when it is the CLI face of one. */
  operation?: AnyOperation;
  /** Other operations it shows along (e.g. `task show` lists the task's executions). */
  alsoUses?: AnyOperation[];
  /** Defaults to the operation's description. */
  description?: string;
  /** Positional part of the usage line, e.g. `<title>`. */
  positionals?: string;
  options: Record<string, CliOption>;
  /** Prints a record or a result: `--json` is accepted. */
  json?: boolean;
  /** Parses its own arguments (`options` are then for help only). */
  raw?: boolean;
  /** False when it uses only the workspace data: svc then opens the host without its provider extensions. */
  extensions?: false;
  /**
   * True when it only reads the workspace data (a read-only operation, `extensions: false`): on a
   * home with no database yet, svc answers from the build's template and makes none.
   */
  readsOnly?: true;
  /**
   * A subcommand of a single-command group (`svc mcp token` beside `svc mcp`): `svc <group> <name>`
   * runs it, the group's command lists it in its own help, and `svc --help` and the completion script
   * leave it out.
   */
  subcommand?: true;
  /** True when it runs operations of the host's plugins (the harness): svc opens the host with them (their migrations and stores). */
  plugins?: true;
  examples: string[];
  run(run: CliRun): Promise<number>;
}

/** A command that parses its own arguments (`raw`): its place in `svc --help`, its usage line and examples. */
export function rawCommand(group: string, name: string, description: string, usage: string, examples: string[], run: (run: CliRun) => Promise<number>): CliCommand {
  return { group, name, description, positionals: usage, options: {}, raw: true, examples, run };
}
