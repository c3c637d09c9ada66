// PATH lookup done here rather than by the shell or `which`: preflight never runs a shell, and the
// places it looked go into the `cli_not_found` details.
import { delimiter as posixDelimiter, isAbsolute, join, win32 } from 'node:path';
import { isExecutableFile } from './is-executable-file.js';

export interface PathLookup {
  /** Absolute path of the first executable match, if any. */
  found?: string;
  /** Every file looked at, in order. */
  tried: string[];
}

function readEnv(env: Record<string, string | undefined>, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name];
  // Windows environment names are case-insensitive (`Path` is common).
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

export async function findOnPath(
  name: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
): Promise<PathLookup> {
  const windows = platform === 'win32';
  const dirs = (readEnv(env, 'PATH', platform) ?? '')
    .split(windows ? win32.delimiter : posixDelimiter)
    // Empty and relative entries mean "the current directory": never resolve a CLI through them.
    .filter((dir) => dir !== '' && (windows ? win32.isAbsolute(dir) : isAbsolute(dir)));
  const extensions = windows && win32.extname(name) === ''
    ? (readEnv(env, 'PATHEXT', platform) ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)
    : [''];

  const tried: string[] = [];
  for (const dir of dirs) {
    for (const extension of extensions) {
      const candidate = windows ? win32.join(dir, name + extension) : join(dir, name + extension);
      tried.push(candidate);
      if (await isExecutableFile(candidate)) return { found: candidate, tried };
    }
  }
  return { tried };
}
