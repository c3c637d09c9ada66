// Another build of svc for upgrade tests: a copy of the built bundles (host/dist) whose host version
// is another, as the next release would be. The terminal holder's build is the host version, so the
// copy's `svc serve` starts its own holder, from the copy's terminal-holder.mjs.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './svc-process.js';

export interface SvcBuild {
  version: string;
  /** The bundle to run as `node <entry> serve`. */
  entry: string;
  dist: string;
  remove(): void;
}

/**
 * Copies host/dist beside the repository's node_modules (ignored by git; the copy's packages resolve
 * from there, and it finds the checkout's hooks and web files by walking up, as host/dist does).
 */
export function nextSvcBuild(version: string): SvcBuild {
  const parent = join(REPO_ROOT, 'node_modules/.cache/svc-test-builds');
  mkdirSync(parent, { recursive: true });
  const root = mkdtempSync(join(parent, `svc-${version}-`));
  const dist = join(root, 'dist');
  cpSync(join(REPO_ROOT, 'host/dist'), dist, { recursive: true });
  const entry = join(dist, 'svc.mjs');
  const source = readFileSync(entry, 'utf8');
  const pattern = /HOST_VERSION = "[^"]+";/;
  if (!pattern.test(source)) throw new Error('host/dist/svc.mjs no longer declares HOST_VERSION as a literal: update nextSvcBuild');
  writeFileSync(entry, source.replace(pattern, `HOST_VERSION = ${JSON.stringify(version)};`));
  return { version, entry, dist, remove: () => rmSync(root, { recursive: true, force: true }) };
}
