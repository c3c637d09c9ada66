import type { ProcessExit } from '../host-context/host-context.js';

/**
 * `claude exited with code 3: <stderr tail>` — the message of a `cli_failed` error. Pass the tail
 * already redacted (`redactSecrets`).
 */
export function describeCliExit(cliName: string, exit: Pick<ProcessExit, 'exitCode' | 'signal'>, stderrTail = ''): string {
  const how = exit.exitCode === null ? `was ended by ${exit.signal ?? 'a signal'}` : `exited with code ${exit.exitCode}`;
  return stderrTail ? `${cliName} ${how}: ${stderrTail}` : `${cliName} ${how}`;
}
