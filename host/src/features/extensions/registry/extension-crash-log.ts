import { z } from 'zod';
import type { Db } from '../../../platform/db/index.js';

const CrashRowSchema = z
  .object({ at: z.string(), method: z.string(), isolation: z.string(), reason: z.string() })
  .transform((row) => ({ at: row.at, method: row.method, isolation: row.isolation, reason: row.reason }));

export type ExtensionCrash = z.output<typeof CrashRowSchema>;

/** How many crashes `svc ext doctor` shows, and the log keeps, per extension. */
const KEPT_PER_EXTENSION = 50;

/** The `extension_crashes` table: calls that took their worker thread or process down. */
export class ExtensionCrashLog {
  constructor(private readonly db: Db) {}

  record(id: string, crash: ExtensionCrash): void {
    this.db.prepare('INSERT INTO extension_crashes (extension_id, at, method, isolation, reason) VALUES (?, ?, ?, ?, ?)').run(id, crash.at, crash.method, crash.isolation, crash.reason);
    this.db
      .prepare('DELETE FROM extension_crashes WHERE extension_id = ? AND id NOT IN (SELECT id FROM extension_crashes WHERE extension_id = ? ORDER BY id DESC LIMIT ?)')
      .run(id, id, KEPT_PER_EXTENSION);
  }

  /** Newest first. */
  list(id: string): ExtensionCrash[] {
    return this.db
      .prepare('SELECT at, method, isolation, reason FROM extension_crashes WHERE extension_id = ? ORDER BY id DESC')
      .all(id)
      .map((row) => CrashRowSchema.parse(row));
  }

  /** Crashes at or after `since` (ISO time) that still count towards a quarantine. */
  countSince(id: string, since: string): number {
    const row = this.db.prepare('SELECT COUNT(*) AS n FROM extension_crashes WHERE extension_id = ? AND at >= ? AND counts = 1').get(id, since) as { n: number };
    return Number(row.n);
  }

  /** The person enabled the provider again: earlier crashes no longer count (doctor still lists them). */
  forgive(id: string): void {
    this.db.prepare('UPDATE extension_crashes SET counts = 0 WHERE extension_id = ?').run(id);
  }

  forget(id: string): void {
    this.db.prepare('DELETE FROM extension_crashes WHERE extension_id = ?').run(id);
  }
}
