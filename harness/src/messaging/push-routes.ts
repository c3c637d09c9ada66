import type Database from 'libsql';
import type { Db } from '@svc-org/host/platform/db';
import type { ChannelStore, PushChannel } from '../gateways/channel-store.js';
import type { MessageStore, Ownership } from './message-store.js';

/** Where a push of a task goes: its project, workspace and live execution, and its channel and gateway. */
export interface PushRoute {
  owner: Ownership;
  /** Undefined when no active channel serves the task (or none of that name). */
  channel: PushChannel | undefined;
}

/** At most this many routes are kept: one more, and all are forgotten (they are read again as needed). */
const LIMIT = 256;

/** SQLite's two counters, as a push read them. */
interface Counters {
  changes: number;
  version: number;
}

/**
 * The routes of this connection's pushes, kept by task and channel name so a push to the same place
 * as the last one reads neither the task nor its channel again. A kept route is used only while
 * nothing that could change it has been committed since it was read, which two counters of SQLite
 * tell without reading a page: `data_version` moves whenever another connection commits (the CLI,
 * `svc mcp`, another `svc serve`, in this process or another), and `total_changes()` moves with every
 * row this connection inserts, updates or deletes, in any table. Both are read inside the push's
 * write transaction, so nothing commits between the check and the rows written.
 */
export class PushRoutes {
  private readonly routes = new Map<string, PushRoute>();
  /** The counters right after the last push's rows, while its routes are trusted. */
  private stamp: Counters | undefined;
  /** The counters the push under way read before its rows. */
  private read: Counters | undefined;
  /**
   * The two counters, each read by its own statement returning a bare array: a row object costs
   * more than the read (about 0.8 µs each this way, 3.7 µs as one statement of two named columns).
   */
  private counters: { version: Database.Statement<unknown[]>; changes: Database.Statement<unknown[]> } | undefined;

  constructor(
    private readonly db: Db,
    private readonly messages: MessageStore,
    private readonly channels: ChannelStore,
  ) {}

  /** The task's route (inside the push's transaction): the kept one while it still holds, read again otherwise. */
  routeOf(taskId: number, channelName: string | undefined): PushRoute {
    if (!this.db.inTransaction) throw new Error('PushRoutes.routeOf() runs inside a transaction()');
    this.counters ??= { version: rawStatement('PRAGMA data_version', this.db), changes: rawStatement('SELECT total_changes()', this.db) };
    const now = { version: (this.counters.version.get() as unknown as [number])[0], changes: (this.counters.changes.get() as unknown as [number])[0] };
    const stamp = this.stamp;
    // Until this push reports its rows nothing kept is trusted: a push that fails leaves no stamp.
    this.stamp = undefined;
    this.read = now;
    if (stamp === undefined || stamp.changes !== now.changes || stamp.version !== now.version) this.routes.clear();
    const key = channelName === undefined ? `${taskId}` : `${taskId}:${channelName}`;
    const kept = this.routes.get(key);
    if (kept) return kept;
    const owner = this.messages.ownerOf(taskId);
    const channel = this.channels.pickForPush({ workspaceId: owner.workspaceId, projectId: owner.projectId }, channelName);
    const route = { owner, channel };
    if (channel) {
      if (this.routes.size >= LIMIT) this.routes.clear();
      this.routes.set(key, route);
    }
    return route;
  }

  /**
   * The push that called routeOf wrote `rows` rows (as its statements reported them) and nothing
   * else: its routes hold until the next write. Rows a trigger added would only make the next check
   * miss (total_changes() counts them, the statements do not), never pass wrongly.
   */
  wrote(rows: number): void {
    const read = this.read;
    this.read = undefined;
    if (read !== undefined) this.stamp = { changes: read.changes + rows, version: read.version };
  }
}

/**
 * A statement of its own, prepared by libsql itself rather than the connection's statement cache
 * (cachePreparedStatements), since its mode is switched to bare arrays.
 */
function rawStatement(sql: string, db: Db): Database.Statement<unknown[]> {
  const uncached = { prepare: (Object.getPrototypeOf(db) as Db).prepare.bind(db) };
  return uncached.prepare(sql).raw(true);
}
