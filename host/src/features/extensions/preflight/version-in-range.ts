// A manifest's compatibility range against a version, by one rule wherever svc judges one
// (preflight, the catalog listing, `svc ext outdated`).
import semver from 'semver';

/** What a compatibility range is about: `svc` and `node` (the manifest's `compatibility`), or the provider's CLI. */
export type RangeSubject = 'svc' | 'node' | 'cli';

/**
 * npm's rules for svc and Node.js: a pre-release host or Node.js is in a range only when the range
 * names a pre-release of the same version. A CLI's nightly or preview build is judged by its
 * numbers: 0.20.0-nightly.1 is in >=0.18.0 <1.0.0.
 */
export function versionInRange(subject: RangeSubject, version: string, range: string): boolean {
  return semver.satisfies(version, range, { includePrerelease: subject === 'cli' });
}
