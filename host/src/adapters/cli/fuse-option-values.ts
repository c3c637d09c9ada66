/**
 * `--arg --verbose` means "--arg with the value --verbose" for an option that takes a value; node's
 * parseArgs refuses it as ambiguous. Such pairs are joined (`--arg=--verbose`) before parsing.
 * Everything after `--` is left alone.
 */
export function fuseOptionValues(args: readonly string[], takesValue: (token: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const token = args[i]!;
    if (token === '--') {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    if (next !== undefined && next.startsWith('-') && takesValue(token)) {
      out.push(token.startsWith('--') ? `${token}=${next}` : `${token}${next}`);
      i += 1;
    } else out.push(token);
  }
  return out;
}
