// Numbered, append-only migrations. A landed file is never edited; a change is a new file.
import m0001 from './migrations/0001_init.sql';
import m0002 from './migrations/0002_tasks.sql';
import m0003 from './migrations/0003_catalog_installs.sql';
import m0004 from './migrations/0004_task_terminal_wiring.sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: '0001_init', sql: m0001 },
  { version: 2, name: '0002_tasks', sql: m0002 },
  { version: 3, name: '0003_catalog_installs', sql: m0003 },
  { version: 4, name: '0004_task_terminal_wiring', sql: m0004 },
];
