// The install journal (`extension_operations`): a catalog operation writes its row before it touches
// anything and deletes it in the transaction that completes it. A row whose process is gone marks an
// operation a kill interrupted; one per extension at a time, so two processes never interleave.
import { randomBytes } from 'node:crypto';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../../platform/db/index.js';
import { transaction } from '../../../platform/db/index.js';
import { processStartTime } from '../../../platform/processes/process-start-time.js';
import { CatalogInstallCodes } from './catalog-install-codes.js';

export const OPERATION_KINDS = ['install', 'update', 'rollback', 'uninstall'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

const JournalRowSchema = z
  .object({
    op_id: z.string(),
    kind: z.enum(OPERATION_KINDS),
    extension_id: z.string(),
    version: z.string().nullable(),
    pid: z.number(),
    pid_start_time: z.string().nullable(),
    started_at: z.string(),
  })
  .transform((row) => ({
    opId: row.op_id,
    kind: row.kind,
    extensionId: row.extension_id,
    version: row.version ?? undefined,
    pid: row.pid,
    pidStartTime: row.pid_start_time ?? undefined,
    startedAt: row.started_at,
  }));

export type JournalEntry = z.output<typeof JournalRowSchema>;

export class InstallJournal {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  list(): JournalEntry[] {
    return this.db.prepare('SELECT * FROM extension_operations ORDER BY started_at').all().map((row) => JournalRowSchema.parse(row));
  }

  /** Opens an operation, or refuses with `extension_operation_in_progress` while a live one holds the id. */
  begin(kind: OperationKind, extensionId: string, version?: string): JournalEntry {
    return transaction(this.db, () => {
      const row = this.db.prepare('SELECT * FROM extension_operations WHERE extension_id = ?').get(extensionId);
      if (row) {
        const other = JournalRowSchema.parse(row);
        if (isOperationLive(other)) {
          throw new SvcError({
            code: CatalogInstallCodes.operationInProgress,
            message: `${extensionId}: another ${other.kind} (process ${other.pid}) is in progress; try again when it ends`,
            details: { kind: other.kind, pid: other.pid },
          });
        }
        // Its process died after this one started (its leftovers are swept at the next start).
        this.finish(other.opId);
      }
      const entry: JournalEntry = {
        opId: `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`,
        kind,
        extensionId,
        version,
        pid: process.pid,
        pidStartTime: processStartTime(process.pid),
        startedAt: this.now().toISOString(),
      };
      this.db
        .prepare('INSERT INTO extension_operations (op_id, kind, extension_id, version, pid, pid_start_time, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(entry.opId, kind, extensionId, version ?? null, entry.pid, entry.pidStartTime ?? null, entry.startedAt);
      return entry;
    });
  }

  /** Deletes the row; inside the completing transaction, or alone when an operation gives up. */
  finish(opId: string): void {
    this.db.prepare('DELETE FROM extension_operations WHERE op_id = ?').run(opId);
  }
}

/** Whether the process that wrote the row still runs (the same process, not a later one with its pid). */
export function isOperationLive(entry: Pick<JournalEntry, 'pid' | 'pidStartTime'>): boolean {
  if (entry.pidStartTime !== undefined) return processStartTime(entry.pid) === entry.pidStartTime;
  try {
    process.kill(entry.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
