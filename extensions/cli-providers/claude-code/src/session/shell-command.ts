/** An argv as one POSIX shell command line: Claude Code runs a hook's `command` through the shell. */
export function shellCommand(argv: string[]): string {
  return argv.map((word) => (/^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
