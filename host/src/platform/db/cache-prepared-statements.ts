import type { Db } from './database.js';

type Statement = ReturnType<Db['prepare']>;
/** What rowsBuiltHere uses of a statement, whichever way its parameters are bound. */
interface Reader {
  readonly reader: boolean;
  columns(): { name: string }[];
  raw(toggle?: boolean): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/**
 * Keeps the last `limit` prepared statements by SQL text, so a store that calls `db.prepare(sql)`
 * on every read compiles that SQL once (compiling costs more than a one-row read). Safe because
 * every call runs a statement to completion synchronously (nothing here iterates lazily) and no
 * caller switches a statement's mode (`raw`, `pluck`): a statement that reads answers its rows as
 * objects built here (see rowsBuiltHere).
 */
export function cachePreparedStatements(db: Db, limit = 256): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Statement>();
  db.prepare = ((sql: string) => {
    const cached = cache.get(sql);
    if (cached) {
      // Most recently used last: the first entry is the one to drop.
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = rowsBuiltHere(prepare(sql));
    cache.set(sql, statement);
    if (cache.size > limit) cache.delete(cache.keys().next().value!);
    return statement;
  }) as Db['prepare'];
}

/**
 * A reading statement's `get` and `all` answer the same objects (a property per column, in the
 * statement's order, the last of two same-named columns winning) built here from libsql's raw
 * arrays: libsql's own row objects cost more than a one-row read, a property set across the native
 * boundary per column and a `_metadata` object per row, which no caller reads.
 */
function rowsBuiltHere(prepared: Statement): Statement {
  const statement = prepared as unknown as Reader;
  if (!statement.reader) return prepared;
  const namesNow = () => statement.columns().map((column) => column.name);
  let names = namesNow();
  statement.raw(true);
  // libsql's own methods, looked up at each call (a test may wrap them on the prototype to watch the statements).
  const libsql = Object.getPrototypeOf(statement) as Reader;
  const rowOf = (values: unknown[]): Record<string, unknown> => {
    // SQLite prepares a statement again after a schema change: a `SELECT *` may then answer more columns.
    if (values.length !== names.length) names = namesNow();
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  };
  statement.get = (...params: unknown[]) => {
    const values = libsql.get.apply(statement, params) as unknown[] | undefined;
    return values === undefined ? undefined : rowOf(values);
  };
  statement.all = (...params: unknown[]) => (libsql.all.apply(statement, params) as unknown[][]).map(rowOf);
  return prepared;
}
