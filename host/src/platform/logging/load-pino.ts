// pino, evaluated when the first record is written: most `svc` commands log nothing, and pino with
// sonic-boom and the rest of its modules was a noticeable part of every start.
import { createRequire } from 'node:module';
import type pino from 'pino';

let loaded: typeof pino | undefined;

export function loadPino(): typeof pino {
  // The bundles bundle this `require` (esbuild runs pino's modules at this call); a run from the
  // sources, an ES module without `require`, takes pino from node_modules.
  loaded ??= (typeof require === 'function' ? require('pino') : createRequire(import.meta.url)('pino')) as typeof pino;
  return loaded;
}
