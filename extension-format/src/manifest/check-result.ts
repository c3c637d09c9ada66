import type { PreflightCode } from './preflight-codes.js';

// The checks in the order preflight runs them: cheap file reads first, the CLI probe (a process) last.
// `integrity` runs only for an installed catalog version (its tree digest was recorded).
export const CHECK_NAMES = [
  'integrity',
  'manifest',
  'catalog-version',
  'host-range',
  'node-range',
  'permissions',
  'entry',
  'config-schema',
  'cli-dependency',
] as const;

export type CheckName = (typeof CHECK_NAMES)[number];

export interface CheckFailure<N extends CheckName = CheckName> {
  check: N;
  ok: false;
  code: PreflightCode;
  message: string;
  /** One line telling the user what to change. */
  fix: string;
  details?: Record<string, unknown>;
}

export type CheckPassed<N extends CheckName, T extends object = object> = { check: N; ok: true } & T;

export type CheckResult<N extends CheckName = CheckName, T extends object = object> = CheckPassed<N, T> | CheckFailure<N>;

export function checkFailed<N extends CheckName>(
  check: N,
  code: PreflightCode,
  message: string,
  fix: string,
  details?: Record<string, unknown>,
): CheckFailure<N> {
  return details === undefined ? { check, ok: false, code, message, fix } : { check, ok: false, code, message, fix, details };
}
