/** An argument vector as a person would type it: each argument quoted only when it needs to be. */
export function formatArgv(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`)).join(' ');
}
