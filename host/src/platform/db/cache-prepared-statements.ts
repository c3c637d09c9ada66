import type { Db } from './database.js';

/**
 * Keeps the last `limit` prepared statements by SQL text, so a store that calls `db.prepare(sql)`
 * on every read compiles that SQL once (compiling costs more than a one-row read). Safe because
 * every call runs a statement to completion synchronously (nothing here iterates lazily) and no
 * caller switches a statement's mode (`raw`, `pluck`).
 */
export function cachePreparedStatements(db: Db, limit = 256): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, ReturnType<Db['prepare']>>();
  db.prepare = ((sql: string) => {
    const cached = cache.get(sql);
    if (cached) {
      // Most recently used last: the first entry is the one to drop.
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = prepare(sql);
    cache.set(sql, statement);
    if (cache.size > limit) cache.delete(cache.keys().next().value!);
    return statement;
  }) as Db['prepare'];
}
