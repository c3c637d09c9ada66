// `pnpm build`: the database a new home starts from, migrated here once from the same migrations as
// the bundles (host/src/platform/db/database-template.ts copies it in), instead of by the first
// command each new home runs. Written beside the bundles in host/dist and host/dist/cli (one file,
// linked), where each bundle's databaseTemplate() looks for it.
import { existsSync, statSync } from 'node:fs';
import { chmod, link, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { importSources } from './import-sources.mjs';

export async function writeDatabaseTemplate(root) {
  const { openDatabase, DATABASE_TEMPLATE_NAME } = await importSources(
    root,
    "export { openDatabase, DATABASE_TEMPLATE_NAME } from './host/src/platform/db/index.ts';",
    'database-template',
  );
  const dir = await mkdtemp(join(root, 'node_modules/.cache/svc-database-template-'));
  try {
    const file = join(dir, DATABASE_TEMPLATE_NAME);
    const db = openDatabase(file);
    // Everything in the one file (the log checkpointed into it and emptied): a copy of it alone is the whole database.
    const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    if (checkpoint.busy !== 0 || (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size !== 0)) throw new Error(`${file}: the template's write-ahead log was not emptied into it`);
    const dist = join(root, 'host/dist');
    await rename(file, join(dist, DATABASE_TEMPLATE_NAME));
    // Readable by every user of this checkout: each one's copy is made owner-only as it is copied in.
    await chmod(join(dist, DATABASE_TEMPLATE_NAME), 0o644);
    if (existsSync(join(dist, 'cli'))) {
      await rm(join(dist, 'cli', DATABASE_TEMPLATE_NAME), { force: true });
      await link(join(dist, DATABASE_TEMPLATE_NAME), join(dist, 'cli', DATABASE_TEMPLATE_NAME));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
