// Run at every start (openHostServices): undoes what killed catalog operations left behind. The
// database is already consistent (each switch is one transaction), so this only drops journal rows of
// dead processes, then removes staging folders and store folders that nothing refers to. Operations
// of processes still running are left alone, with their staging and store folders.
import { readdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../platform/logging/index.js';
import type { ExtensionVersionStore } from '../registry/index.js';
import type { ExtensionStoreLayout } from './extension-store-layout.js';
import { isOperationLive, type InstallJournal, type JournalEntry } from './install-journal.js';
import { removeTree } from './remove-tree.js';

export interface CatalogRecoveryReport {
  /** Journal rows of processes that died mid-operation. */
  interrupted: JournalEntry[];
  /** Folders removed, relative to SVC_HOME/extensions. */
  removed: string[];
}

export interface RecoverCatalogOperationsOptions {
  journal: InstallJournal;
  versions: ExtensionVersionStore;
  layout: ExtensionStoreLayout;
  logger: Logger;
}

export async function recoverCatalogOperations(options: RecoverCatalogOperationsOptions): Promise<CatalogRecoveryReport> {
  const { journal, layout, logger } = options;
  const report: CatalogRecoveryReport = { interrupted: [], removed: [] };
  // Folders are listed before the journal and the versions are read: an operation that creates a
  // folder has journaled itself before, and one that commits writes its version row in the same
  // transaction that drops its journal row, so whatever was listed is accounted for.
  const staging = await listFolder(layout.staging);
  const store = new Map<string, string[]>();
  for (const id of await listFolder(layout.store)) store.set(id, await listFolder(join(layout.store, id)));

  const live: JournalEntry[] = [];
  for (const entry of journal.list()) {
    if (isOperationLive(entry)) {
      live.push(entry);
      continue;
    }
    journal.finish(entry.opId);
    report.interrupted.push(entry);
    logger.warn('a catalog operation was interrupted; cleaning up after it', { op: entry.opId, kind: entry.kind, id: entry.extensionId, version: entry.version });
  }

  const liveOps = new Set(live.map((entry) => entry.opId));
  for (const name of staging) {
    if (liveOps.has(name)) continue;
    await removeTree(join(layout.staging, name));
    report.removed.push(`staging/${name}`);
  }

  const busy = new Set(live.map((entry) => entry.extensionId));
  const known = new Set(options.versions.list().map((row) => `${row.id}/${row.version}`));
  for (const [id, versions] of store) {
    // A live operation may have moved a version in that its transaction has not committed yet.
    if (busy.has(id)) continue;
    let kept = 0;
    for (const version of versions) {
      if (known.has(`${id}/${version}`)) {
        kept += 1;
        continue;
      }
      await removeTree(join(layout.store, id, version));
      report.removed.push(`store/${id}/${version}`);
    }
    // Only an empty folder: an operation that started after the journal was read may be moving in.
    if (kept === 0) await rmdir(join(layout.store, id)).catch(() => undefined);
  }
  if (report.removed.length > 0) logger.info('removed catalog install leftovers', { removed: report.removed });
  return report;
}

async function listFolder(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
