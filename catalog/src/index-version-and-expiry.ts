// The index `version` and `expires` of a build, computed in this one place for every way a catalog is
// built (the repository's build and `svc catalog build`), before any slow step so a bad value fails at once.
import { DEFAULT_INDEX_LIFETIME, parseIndexExpiry } from './parse-index-expiry.js';
import { parseIndexVersion } from './parse-index-version.js';
import { parseSourceDateEpoch } from './parse-source-date-epoch.js';

export interface IndexVersionOptions {
  /** The index `version`; default the build's Unix time in seconds. */
  indexVersion?: string;
  /** A lifetime (`30d`, `12h`) or a UTC time; default 30d. */
  expires?: string;
  /** The build's clock (tests); default SOURCE_DATE_EPOCH when set, else the time of the build. */
  now?: Date;
}

export function indexVersionAndExpiry(options: IndexVersionOptions): { version: number; expires: string } {
  // SOURCE_DATE_EPOCH, as packagers set it, makes the default build byte-reproducible.
  const now = options.now ?? parseSourceDateEpoch(process.env.SOURCE_DATE_EPOCH) ?? new Date();
  const version = parseIndexVersion(options.indexVersion, now);
  const expires = parseIndexExpiry(options.expires ?? DEFAULT_INDEX_LIFETIME, now);
  return { version, expires };
}
