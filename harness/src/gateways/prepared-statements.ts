import type Database from 'libsql';
import type { Db } from '@svc-org/host/platform/db';

type Statement = Database.Statement<unknown[]>;

/** Statements prepared once per SQL text: libsql's prepare costs more than the write it serves. */
export class PreparedStatements {
  private readonly cache = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  get(sql: string): Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }
}
