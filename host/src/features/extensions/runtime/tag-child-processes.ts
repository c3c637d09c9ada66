// Runs in a provider's worker thread, before the provider is imported: every process the provider
// starts with Node's own child_process carries the thread's tag in its environment, even when the
// provider passes an `env` of its own, so the host can end them if it abandons the thread.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

type Options = { env?: NodeJS.ProcessEnv; envPairs?: string[] };

export function tagChildProcesses(name: string, value: string): void {
  process.env[name] = value;
  const pair = `${name}=${value}`;
  // spawn, exec, execFile and fork all end in ChildProcess#spawn with the environment as pairs.
  const proto = childProcess.ChildProcess.prototype as unknown as { spawn(options: Options): unknown };
  const spawn = proto.spawn;
  proto.spawn = function (this: unknown, options: Options) {
    if (Array.isArray(options?.envPairs) && !options.envPairs.includes(pair)) options.envPairs.push(pair);
    return spawn.call(this, options);
  };
  // The synchronous variants do not go through ChildProcess: add the tag to an explicit env.
  const sync = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const fn of ['spawnSync', 'execSync', 'execFileSync']) {
    const original = sync[fn]!;
    sync[fn] = function (this: unknown, ...args: unknown[]) {
      const tagged = args.map((arg) =>
        arg && typeof arg === 'object' && !Array.isArray(arg) && (arg as Options).env ? { ...arg, env: { ...(arg as Options).env, [name]: value } } : arg,
      );
      return original.apply(this, tagged);
    };
  }
  // `import { execFileSync } from 'node:child_process'` in the provider sees the wrapped functions.
  syncBuiltinESMExports();
}
