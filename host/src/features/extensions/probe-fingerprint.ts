// The CLI probe a manifest names, as one comparable text: which executable it looks for (the
// command, its aliases and known paths) and the arguments it runs it with. A person confirms it
// with the permissions; another probe needs their confirmation again, like another permission set.
import type { Manifest } from '@svc-org/ai-sdk';

export function probeFingerprint(manifest: Pick<Manifest, 'command'>): string {
  const { default: command, aliases, knownPaths, versionArgs } = manifest.command;
  const paths = Object.fromEntries(Object.entries(knownPaths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ command, aliases, knownPaths: paths, versionArgs });
}

/** The probe as a person reads it: `<command> <args…>`. */
export function describeProbe(fingerprint: string): string {
  try {
    const probe = JSON.parse(fingerprint) as { command: string; versionArgs: string[] };
    return [probe.command, ...probe.versionArgs].join(' ');
  } catch {
    return fingerprint;
  }
}
