// A task terminal's `svc mcp` finds its task credential in the run's owner-only secrets file
// (`SVC_TASK_SECRETS_FILE`), never in an argument another account could read in `ps`.
import { readFileSync } from 'node:fs';
import { SvcError } from '@svc-org/ai-sdk';

// The keys writeTaskSecrets (features/terminals) writes; nothing else is taken from the file.
const SECRET_KEYS = ['SVC_TASK_CREDENTIAL', 'SVC_DATABASE_URL'] as const;

/** `env` with the values of the file `SVC_TASK_SECRETS_FILE` names (only the task's secret keys); `env` itself without one. */
export function withTaskSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const path = env.SVC_TASK_SECRETS_FILE;
  if (path === undefined || path === '') return env;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SvcError({
      code: 'task_secrets_unreadable',
      message: `the task's secrets file (SVC_TASK_SECRETS_FILE) could not be read: ${(error as NodeJS.ErrnoException).code ?? 'not JSON'}`,
      details: { fix: 'the file exists only while the task terminal svc started runs; start svc mcp from that terminal, or leave SVC_TASK_SECRETS_FILE unset' },
    });
  }
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const key of SECRET_KEYS) {
    const value = (parsed as Record<string, unknown> | null)?.[key];
    if (typeof value === 'string' && value !== '') merged[key] = value;
  }
  return merged;
}
