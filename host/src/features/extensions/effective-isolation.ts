import type { IsolationMode } from './runtime/index.js';
import type { ExtensionRecord } from './registry/index.js';

/** The publisher whose providers ship with svc and are trusted like it. */
const OFFICIAL_PUBLISHER = 'svc-official';

/**
 * How an extension runs: as the person chose, else hardened (`process`) for a catalog provider of
 * another publisher — third-party code — and on a worker thread for builtins and developer mode.
 */
export function effectiveIsolation(record: Pick<ExtensionRecord, 'id' | 'source' | 'isolation'>): IsolationMode {
  if (record.isolation) return record.isolation;
  // An extension id is `<publisher>.<name>` (preflight checks it against the manifest's publisher).
  const publisher = record.id.split('.')[0];
  return record.source === 'catalog' && publisher !== OFFICIAL_PUBLISHER ? 'process' : 'worker';
}
