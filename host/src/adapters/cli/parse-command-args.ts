import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '../../platform/config/index.js';
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
    throw new UsageError(`${inSvcWords(error as Error & { code?: string }, options)}\nusage: ${usage}`);
  }
}

/** Node's parser errors, said the way svc says the rest (an unknown option gets a "did you mean"). */
function inSvcWords(error: Error & { code?: string }, options: Options): string {
  const named = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  // Node names an option as "-p, --project <value>" or "--stop"; the long form is what a person types.
  const flag = /--[^\s,]+/.exec(named)?.[0] ?? named.split(/[\s,]/)[0] ?? named;
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const known = Object.entries(options).flatMap(([name, option]) => [`--${name}`, ...(option.short ? [`-${option.short}`] : [])]);
      const typed = flag.split('=')[0]!;
      const guess = typed.startsWith('--') ? closestName(typed, known.filter((name) => name.startsWith('--'))) : undefined;
      return `unknown option ${typed}${guess ? ` — did you mean ${guess}?` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return / does not take an argument/.test(error.message) ? `${flag} takes no value` : `${flag} needs a value`;
    default:
      return error.message;
  }
}
