import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fuseOptionValues } from './fuse-option-values.js';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs with usage errors the CLI prints with status 2; option values may start with "-". */
export function parseCommandArgs<O extends Options>(args: string[], options: O, usage: string) {
  const takesValue = (token: string) => {
    if (token.startsWith('--')) return options[token.slice(2)]?.type === 'string';
    if (/^-[A-Za-z]$/.test(token)) return Object.values(options).some((option) => option.short === token.slice(1) && option.type === 'string');
    return false;
  };
  try {
    return parseArgs({ args: fuseOptionValues(args, takesValue), options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nusage: ${usage}`);
  }
}
