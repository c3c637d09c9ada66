import Database from 'libsql';

export type Db = InstanceType<typeof Database>;
export type SqlValue = string | number | bigint | null | Buffer;
