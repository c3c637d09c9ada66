// CLIs print their version in many shapes: `0.24.4`, `v20.1.0`, `2.1.197 (Claude Code)`,
// `codex-cli 0.169.0`. The first x.y.z (with an optional prerelease) wins.
import semver from 'semver';

const VERSION_LIKE = /(?<![\d.])v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)/g;

export function parseCliVersion(output: string): string | undefined {
  for (const match of output.matchAll(VERSION_LIKE)) {
    const text = match[1] ?? '';
    const version = semver.valid(text) ?? semver.valid(semver.coerce(text));
    if (version !== null) return version;
  }
  return undefined;
}
