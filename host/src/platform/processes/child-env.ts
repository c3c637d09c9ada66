// The environment a CLI child gets: the user's (the CLI owns its own login and keys), minus the
// host's own SVC_* settings and secrets, plus the connection's environment and the adapter's patch.
export function childEnv(
  hostEnv: NodeJS.ProcessEnv,
  ...patches: Array<Record<string, string> | undefined>
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(hostEnv)) {
    if (value === undefined || key.startsWith('SVC_')) continue;
    env[key] = value;
  }
  for (const patch of patches) Object.assign(env, patch ?? {});
  return env;
}

// A provider's environment patch loses the host's SVC_* keys and what would make a program run other
// code: the rule is the SDK's, so a provider's own tests (its test host) and svc apply the same one.
export { filterProviderEnvPatch, type FilteredEnvPatch } from '@svc-org/ai-sdk';

// Environment keys the host owns in a child: neither a provider nor a connection sets them.
const HOST_OWNED_ENV = /^SVC_/i;

/** A connection's environment (the person's own settings) without the host's SVC_* keys. */
export function withoutHostOwnedEnv(env: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(env ?? {}).filter(([key]) => !HOST_OWNED_ENV.test(key)));
}

// What a provider worker thread sees in process.env: enough to run, nothing secret.
const WORKER_ENV_ALLOWLIST = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TERM', 'SHELL'];

export function scrubbedWorkerEnv(hostEnv: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of WORKER_ENV_ALLOWLIST) {
    const value = hostEnv[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}
