// An operation's CLI command, declared with it: the command's path, which input fields are positional
// arguments, how a flag departs from the one its input field makes, and how a person reads the
// answer. The CLI adapter (adapters/cli/operation-command.ts) builds the command from it; every input
// field not named here is a `--kebab-case` flag of the type and description its schema declares.

/** A flag that takes an id or a name, resolved to the id the operation takes. */
export type CliResolvable = 'project' | 'workspace';

/** How one input field's flag departs from the one its schema makes. */
export interface OperationCliFlag {
  /** The flag's name (default: the field in kebab-case, or the record kind it resolves); false: none, only its `clear` switch. */
  flag?: string | false;
  /** A one-letter alias (`-p`). */
  short?: string;
  /** The value's placeholder in help (default: `<id|name>`, `<n>` or the field in kebab-case). */
  value?: string;
  /** Help text (default: the field schema's description). */
  description?: string;
  /** The flag takes an id or a name of this kind, resolved before the call. */
  resolve?: CliResolvable;
  /** It takes a file or folder, read relative to where the person stands (the command's working directory). */
  folder?: true;
  /** A switch beside it that sets the field to a value (`--no-color`: null, `--disable`: false), which excludes the flag. */
  clear?: { flag: string; description: string; value: unknown };
  /**
   * A record field typed as repeated `KEY=VALUE` pairs (the placeholder, `value`, says how); a pair
   * without a key is a usage error that names the key typed, never the value (it may be a secret).
   * `unset` is a repeatable flag beside it whose keys the record sets to null (removes them).
   */
  pairs?: true | { unset: { flag: string; description: string } };
  /**
   * The person must type it (its field is required): it is checked before the arguments, and its
   * usage error shows the command with its required flags (`usage: svc connection add <name> --provider <id>`).
   */
  required?: true;
}

/** What a text renderer writes with: lines, a table, a record's fields (escaped as outside text). */
export interface OperationCliPrinter {
  line(text: string): void;
  /** One line of outside text (a manifest's, a catalog's): what a terminal would act on, line breaks included, written as visible escapes. */
  outside(text: string): void;
  /** A line on stderr (a note beside the answer). */
  note(text: string): void;
  table(header: string[], rows: string[][]): void;
  fields(fields: readonly (readonly [label: string, value: string | number | boolean, kind?: 'text'])[]): void;
}

export interface OperationCli<O = unknown> {
  /** `group name` (`task list`), or the group alone for a single-command group (`search`). */
  command: string;
  /** Defaults to the operation's description. */
  description?: string;
  /** Input fields taken from positional arguments, in order; a last `...field` takes the rest (text, or a list for an array field), a last `field?` may be left out. */
  positionals?: readonly string[];
  /** The positional part of the usage line, when the field names do not say it (`<id> [<label>...]`). */
  usage?: string;
  /** What a usage error says was expected when the arguments are too few or many (`exactly one connection name`; default the usage's positional part). */
  expects?: string;
  /** Input values the command sets itself. */
  fixed?: Readonly<Record<string, unknown>>;
  /** Input fields offered as no flag. */
  omit?: readonly string[];
  /** Flags that depart from their field's, by input field (help lists flags in the schema's order). */
  flags?: Readonly<Record<string, OperationCliFlag>>;
  /** Flags (and switches) help lists first, in this order; the others follow in the schema's. */
  order?: readonly string[];
  /** It uses only the workspace data: svc opens the host without its provider extensions. */
  extensions?: false;
  /** It runs an operation of the host's plugins (the harness): svc opens the host with them. */
  plugins?: true;
  examples: readonly string[];
  /** What `--json` prints (default: the answer). */
  json?(output: O): unknown;
  /** How a person reads the answer (default: a table of its lists, one line per field). */
  text?(output: O, print: OperationCliPrinter): void;
  /**
   * `text` prints the handler's answer as the handler built it: the output schema, which guards what
   * `--json`, HTTP and MCP answer, is not built or run for the table (`svc task list`). Only for a
   * declaration whose answer the schema neither transforms nor fills in.
   */
  textUnchecked?: true;
}
