// Inside a hardened provider process, before any provider code loads. Node's permission model checks
// the path a call names, not where its symlinks lead, and its realpath does not check at all: a link
// in the package would read a file outside it, and realpath outside the package would tell whether
// a path exists. Every fs call that reads or follows a path is wrapped here: the path must be
// readable as named and, once every link in it is resolved, still readable; anything else is
// ERR_ACCESS_DENIED, the same error Node gives, whether the path exists or not.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

type AnyFunction = (...args: unknown[]) => unknown;

// Calls whose first argument is a path they read, list, stat or follow.
const CALLBACK_AND_SYNC = [
  'readFile', 'readFileSync', 'open', 'openSync', 'createReadStream', 'stat', 'statSync', 'access', 'accessSync',
  'exists', 'existsSync', 'readdir', 'readdirSync', 'opendir', 'opendirSync', 'realpath', 'realpathSync',
  'watch', 'watchFile', 'copyFile', 'copyFileSync', 'cp', 'cpSync', 'statfs', 'statfsSync',
] as const;
const PROMISES = ['readFile', 'open', 'stat', 'access', 'readdir', 'opendir', 'realpath', 'copyFile', 'cp', 'statfs'] as const;

function deniedError(path: string): Error {
  return Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED', permission: 'FileSystemRead', resource: path });
}

function pathOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString();
  if (value instanceof URL) return value.protocol === 'file:' ? fileURLToPath(value) : undefined;
  return undefined;
}

export function confineFileReads(): void {
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } }).permission;
  if (!permission) return;
  // The native realpath: it calls no other fs function (the JS one would come back through these wrappers).
  const realpathOf = fs.realpathSync.native.bind(fs);
  let checking = false;
  const check = (value: unknown) => {
    const named = pathOf(value);
    if (named === undefined || checking) return;
    const absolute = resolve(named);
    if (!permission.has('fs.read', absolute)) throw deniedError(absolute);
    let real: string;
    checking = true;
    try {
      real = realpathOf(absolute);
    } catch {
      // Not there (inside what may be read): the call itself says so.
      return;
    } finally {
      checking = false;
    }
    if (!permission.has('fs.read', real)) throw deniedError(absolute);
  };
  const guard = (original: AnyFunction, async: boolean): AnyFunction =>
    function (this: unknown, ...args: unknown[]) {
      if (async) {
        try {
          check(args[0]);
        } catch (error) {
          return Promise.reject(error);
        }
      } else check(args[0]);
      return original.apply(this, args);
    };
  // The function, and what hangs off it: `realpath.native`, and the promisified form of `exists`.
  const wrap = (original: AnyFunction, async: boolean): AnyFunction => {
    const wrapped = guard(original, async) as AnyFunction & Record<PropertyKey, unknown>;
    const extras = original as AnyFunction & Record<PropertyKey, unknown>;
    if (typeof extras.native === 'function') wrapped.native = guard(extras.native as AnyFunction, false);
    if (typeof extras[promisify.custom] === 'function') wrapped[promisify.custom] = guard(extras[promisify.custom] as AnyFunction, true);
    return wrapped;
  };
  const target = fs as unknown as Record<string, AnyFunction>;
  for (const name of CALLBACK_AND_SYNC) {
    if (typeof target[name] === 'function') target[name] = wrap(target[name], false);
  }
  const promises = fs.promises as unknown as Record<string, AnyFunction>;
  for (const name of PROMISES) {
    if (typeof promises[name] === 'function') promises[name] = wrap(promises[name], true);
  }
  // `import { readFileSync } from 'node:fs'` sees the wrapped functions too.
  syncBuiltinESMExports();
}
