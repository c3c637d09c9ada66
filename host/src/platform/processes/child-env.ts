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
