// `svc completion bash|zsh|fish`: a script generated from the command declarations. Commands and
// flags are written into it; provider ids, connection names and task ids are asked of
// `svc completion --values <kind>` when a completion needs them (a read of the database, no service).
import type { CompletionSpec, CompletionValues } from './completion-spec.js';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function bashWords(values: CompletionValues): string | undefined {
  if (values === null) return undefined;
  return 'live' in values ? `"$(_svc_values ${values.live})"` : quote(values.words.join(' '));
}

/** The bash function; zsh loads the same through bashcompinit. */
function bashFunction(spec: CompletionSpec): string {
  const lines: string[] = [];
  lines.push('_svc_values() { command svc completion --values "$1" 2>/dev/null; }');
  lines.push('_svc() {');
  // zsh (through bashcompinit) counts arrays from 1 unless told otherwise.
  lines.push('  [ -n "${ZSH_VERSION-}" ] && setopt localoptions ksharrays shwordsplit');
  lines.push('  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" group="${COMP_WORDS[1]}" key candidates=""');
  lines.push('  COMPREPLY=()');
  lines.push(`  if [ "$COMP_CWORD" -eq 1 ]; then candidates=${quote(spec.groups.join(' '))}; fi`);
  lines.push('  case "$group" in');
  for (const [group, names] of Object.entries(spec.subcommands)) {
    lines.push(`    ${group}) if [ "$COMP_CWORD" -eq 2 ]; then candidates=${quote(names.join(' '))}; fi; key="$group \${COMP_WORDS[2]}" ;;`);
  }
  lines.push('    *) key="$group" ;;');
  lines.push('  esac');
  lines.push('  [ "$COMP_CWORD" -le 1 ] && key=""');
  lines.push('  case "$key|$prev" in');
  for (const command of spec.commands) {
    for (const [flag, values] of Object.entries(command.flagValues)) {
      const words = bashWords(values);
      // A flag whose value is free text or a path: the shell's own completion (files) applies.
      lines.push(`    ${quote(`${command.key}|${flag}`)}) ${words ? `candidates=${words}` : 'return 0'} ;;`);
    }
  }
  lines.push('  esac');
  lines.push('  if [ -z "$candidates" ]; then');
  lines.push('    if [[ "$cur" == -* ]]; then');
  lines.push('      case "$key" in');
  for (const command of spec.commands) lines.push(`        ${quote(command.key)}) candidates=${quote(command.flags.join(' '))} ;;`);
  lines.push('      esac');
  lines.push('    else');
  lines.push('      case "$key" in');
  for (const command of spec.commands) {
    const words = bashWords(command.positional);
    if (words) lines.push(`        ${quote(command.key)}) candidates=${words} ;;`);
  }
  lines.push('      esac');
  lines.push('    fi');
  lines.push('  fi');
  // Filtered here, not by compgen: zsh's compgen (bashcompinit) does not filter.
  lines.push('  local word');
  lines.push('  for word in $candidates; do case "$word" in "$cur"*) COMPREPLY+=("$word") ;; esac; done');
  lines.push('  return 0');
  lines.push('}');
  return lines.join('\n');
}

function fishScript(spec: CompletionSpec): string {
  const lines = [
    '# svc completion for fish: svc completion fish > ~/.config/fish/completions/svc.fish',
    'function __svc_is',
    '    set -l t (commandline -opc)',
    '    test "$t[2]" = "$argv[1]"; or return 1',
    '    test (count $argv) -lt 2; or test "$t[3]" = "$argv[2]"',
    'end',
    'function __svc_at_group',
    '    test (count (commandline -opc)) -eq 1',
    'end',
    'function __svc_at_command',
    '    set -l t (commandline -opc)',
    '    test (count $t) -eq 2; and test "$t[2]" = "$argv[1]"',
    'end',
    `complete -c svc -n __svc_at_group -f -a ${quote(spec.groups.join(' '))}`,
  ];
  for (const [group, names] of Object.entries(spec.subcommands)) lines.push(`complete -c svc -n ${quote(`__svc_at_command ${group}`)} -f -a ${quote(names.join(' '))}`);
  const fishValues = (values: CompletionValues) => (values === null ? '' : 'live' in values ? ` -x -a '(svc completion --values ${values.live})'` : ` -x -a ${quote(values.words.join(' '))}`);
  for (const command of spec.commands) {
    const condition = quote(`__svc_is ${command.key}`);
    for (const flag of command.flags) {
      const values = command.flagValues[flag];
      lines.push(`complete -c svc -n ${condition} -l ${flag.slice(2)}${values === undefined ? '' : values === null ? ' -r' : fishValues(values)}`);
    }
    if (command.positional) lines.push(`complete -c svc -n ${condition}${fishValues(command.positional)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: CompletionShell, spec: CompletionSpec): string {
  switch (shell) {
    case 'bash':
      return `# svc completion for bash: add to ~/.bashrc\n#   source <(svc completion bash)\n${bashFunction(spec)}\ncomplete -o default -F _svc svc\n`;
    case 'zsh':
      return [
        '# svc completion for zsh: add to ~/.zshrc (after compinit)',
        '#   source <(svc completion zsh)',
        'autoload -U +X compinit && { (( $+functions[compdef] )) || compinit; }',
        'autoload -U +X bashcompinit && bashcompinit',
        bashFunction(spec),
        'complete -o default -F _svc svc',
        '',
      ].join('\n');
    case 'fish':
      return fishScript(spec);
  }
}
