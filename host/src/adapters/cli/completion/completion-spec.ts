// What shell completion knows, derived from the command declarations: each group's commands, each
// command's flags, and which flags and positionals take live values (provider ids, connection names,
// task ids) or a fixed choice. Raw commands declare their flags in their usage line only.
import type { CliCommand } from '../cli-command.js';

/** Values read at completion time by `svc completion --values <kind>`. */
export const LIVE_VALUE_KINDS = ['providers', 'connections', 'tasks'] as const;
export type LiveValueKind = (typeof LIVE_VALUE_KINDS)[number];

/** What a flag or positional completes to: live values, a fixed list, or nothing (the shell's files). */
export type CompletionValues = { live: LiveValueKind } | { words: string[] } | null;

export interface CompletionCommand {
  /** `ext enable`, or `query` for a group that is one command. */
  key: string;
  flags: string[];
  /** Flags that take a value, with what it completes to. */
  flagValues: Record<string, CompletionValues>;
  positional: CompletionValues;
}

export interface CompletionSpec {
  groups: string[];
  /** Groups made of named commands: their names. */
  subcommands: Record<string, string[]>;
  commands: CompletionCommand[];
}

const LIVE_FLAGS: Record<string, LiveValueKind> = { provider: 'providers', connection: 'connections', parent: 'tasks', task: 'tasks' };
const POSITIONAL_BY_GROUP: Record<string, { placeholder: RegExp; kind: LiveValueKind; except?: string[] }> = {
  ext: { placeholder: /^\[?<id>/, kind: 'providers' },
  connection: { placeholder: /^<name>/, kind: 'connections', except: ['add'] },
  task: { placeholder: /^<id>/, kind: 'tasks' },
};

export function buildCompletionSpec(all: readonly CliCommand[]): CompletionSpec {
  const commands = all.filter((command) => !command.subcommand);
  const groups = [...new Set(commands.map((command) => command.group))];
  const subcommands: Record<string, string[]> = {};
  for (const command of commands) if (command.name !== '') (subcommands[command.group] ??= []).push(command.name);
  return { groups, subcommands, commands: commands.map(describeCommand) };
}

function describeCommand(command: CliCommand): CompletionCommand {
  const key = command.name === '' ? command.group : `${command.group} ${command.name}`;
  const flagValues: Record<string, CompletionValues> = {};
  const flags = new Set<string>();
  if (command.raw) {
    // `--flag <value>` or `--flag a|b`, as the usage line writes them.
    for (const match of (command.positionals ?? '').matchAll(/--([a-z][a-z-]*)(?: (<[^>]+>|[a-z]+(?:\|[a-z]+)+))?/g)) {
      flags.add(`--${match[1]}`);
      if (match[2] !== undefined) flagValues[`--${match[1]}`] = valuesOf(match[1]!, match[2]);
    }
  } else {
    for (const [name, option] of Object.entries(command.options)) {
      flags.add(`--${name}`);
      if (option.type === 'string') flagValues[`--${name}`] = valuesOf(name, option.value ?? '');
    }
    if (command.json) flags.add('--json');
  }
  flags.add('--help');
  const byGroup = POSITIONAL_BY_GROUP[command.group];
  const positional =
    byGroup && byGroup.placeholder.test(command.positionals ?? '') && !byGroup.except?.includes(command.name) ? { live: byGroup.kind } : null;
  return { key, flags: [...flags], flagValues, positional };
}

function valuesOf(flag: string, placeholder: string): CompletionValues {
  const live = LIVE_FLAGS[flag];
  if (live) return { live };
  // A fixed choice written `a|b` (`--isolation process|worker`, `--kind openclaw|hermes`).
  const choice = placeholder.replace(/^<|>$/g, '');
  if (/^[a-z]+(\|[a-z]+)+$/.test(choice)) return { words: choice.split('|') };
  return null;
}
