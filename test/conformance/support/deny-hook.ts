// A PreToolUse hook command for the hook scenarios: it keeps what the CLI sent it (to prove it ran
// and for which tool) and prints the CLI's own "deny" answer.
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DenyHook {
  command: string;
  /** The JSON inputs the CLI gave the hook, one per run. */
  calls(): unknown[];
}

export function writeDenyHook(dir: string, denyAnswer: unknown): DenyHook {
  const inputs = join(dir, 'hook-inputs');
  mkdirSync(inputs, { recursive: true });
  const command = join(dir, 'deny-hook.sh');
  writeFileSync(
    command,
    `#!/bin/sh\n# Conformance PreToolUse hook: keep the input, deny the call.\ncat > '${inputs}/'"$$".json\nprintf '%s\\n' '${JSON.stringify(denyAnswer)}'\n`,
  );
  chmodSync(command, 0o755);
  return {
    command,
    calls: () => readdirSync(inputs).map((name) => JSON.parse(readFileSync(join(inputs, name), 'utf8')) as unknown),
  };
}
