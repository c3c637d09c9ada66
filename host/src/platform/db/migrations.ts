// Numbered, append-only migrations. A landed file is never edited; a change is a new file.
import m0001 from './migrations/0001_init.sql';
import m0002 from './migrations/0002_tasks.sql';
import m0003 from './migrations/0003_catalog_installs.sql';
import m0004 from './migrations/0004_catalog_index_versions.sql';
import m0005 from './migrations/0005_knowledge_products_versions.sql';
import m0006 from './migrations/0006_domain_events.sql';
import m0007 from './migrations/0007_extension_integrity.sql';
import m0008 from './migrations/0008_task_terminal_wiring.sql';
import m0009 from './migrations/0009_extension_isolation.sql';
import m0010 from './migrations/0010_extension_confirmed_probe.sql';
import m0012 from './migrations/0012_execution_credentials.sql';
import m0013 from './migrations/0013_task_worktrees.sql';
import m0016 from './migrations/0016_provider_stats.sql';
import m0017 from './migrations/0017_task_base_conflicts.sql';
import m0018 from './migrations/0018_execution_outcome.sql';
import m0019 from './migrations/0019_task_open_approvals.sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: '0001_init', sql: m0001 },
  { version: 2, name: '0002_tasks', sql: m0002 },
  { version: 3, name: '0003_catalog_installs', sql: m0003 },
  { version: 4, name: '0004_catalog_index_versions', sql: m0004 },
  { version: 5, name: '0005_knowledge_products_versions', sql: m0005 },
  { version: 6, name: '0006_domain_events', sql: m0006 },
  { version: 7, name: '0007_extension_integrity', sql: m0007 },
  { version: 8, name: '0008_task_terminal_wiring', sql: m0008 },
  { version: 9, name: '0009_extension_isolation', sql: m0009 },
  { version: 10, name: '0010_extension_confirmed_probe', sql: m0010 },
  { version: 12, name: '0012_execution_credentials', sql: m0012 },
  { version: 13, name: '0013_task_worktrees', sql: m0013 },
  { version: 16, name: '0016_provider_stats', sql: m0016 },
  { version: 17, name: '0017_task_base_conflicts', sql: m0017 },
  { version: 18, name: '0018_execution_outcome', sql: m0018 },
  { version: 19, name: '0019_task_open_approvals', sql: m0019 },
];
