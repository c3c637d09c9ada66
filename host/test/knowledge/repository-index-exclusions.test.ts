// What the repository index never reads: the service's data folder (also when the repository holds
// it, or links to it) and files named like secrets, unless a person opted their path in.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { looksLikeSecretFile, RepositoryIndex } from '../../src/features/knowledge/index.js';

let dir: string;
let db: Db;
let index: RepositoryIndex;

const indexed = (projectId: number) => (db.prepare('SELECT path FROM repo_files WHERE project_id = ? ORDER BY path').all(projectId) as { path: string }[]).map((row) => row.path);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-index-'));
  db = openDatabase(join(dir, 'db.sqlite'));
  const domain = new Domain(db);
  const workspace = domain.workspaces.create({ name: 'w' });
  // Projects 1 to 4; each test passes the folder to index itself.
  for (const name of ['a', 'b', 'c', 'd']) domain.projects.create({ workspaceId: workspace.id, name, repoPath: dir });
  index = new RepositoryIndex(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a repository holding SVC_HOME is read around it; SVC_HOME itself, or a folder inside its entries, is not read at all', () => {
  const repo = join(dir, 'repo');
  const home = join(repo, 'data', 'svc-home');
  mkdirSync(join(home, 'logs'), { recursive: true });
  writeFileSync(join(home, 'token'), 'install-token');
  writeFileSync(join(home, 'logs', 'svc.log'), 'log line');
  writeFileSync(join(repo, 'README.md'), 'readme');
  symlinkSync(home, join(repo, 'link-to-home'));
  expect(index.refresh(1, repo, { svcHome: home }).files).toBe(1);
  expect(indexed(1)).toEqual(['README.md']);
  expect(index.refresh(2, home, { svcHome: home })).toMatchObject({ files: 0 });
  expect(index.refresh(3, join(home, 'logs'), { svcHome: home })).toMatchObject({ files: 0 });
  // Without the rule the same walk reads the log: the refusal above is the rule's doing.
  expect(index.refresh(4, join(home, 'logs')).files).toBe(1);
});

test('files named like secrets are left out until a person opts their path in', () => {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'config'), { recursive: true });
  const secrets = ['api.key', 'server.pem', 'cert.p12', 'prod.env', 'id_rsa', 'id_ed25519', 'token', 'api-token.txt', 'secrets.yaml', 'client_secret.json', 'credentials'];
  const ordinary = ['tokenizer.ts', 'password-reset.ts', 'id_rsa.pub', 'README.md', 'secretary.md'];
  for (const name of [...secrets, ...ordinary]) writeFileSync(join(repo, 'config', name), name);
  writeFileSync(join(repo, '.env'), 'A=1');
  for (const name of secrets) expect(looksLikeSecretFile(name), name).toBe(true);
  for (const name of ordinary) expect(looksLikeSecretFile(name), name).toBe(false);
  index.refresh(1, repo);
  expect(indexed(1)).toEqual(ordinary.map((name) => `config/${name}`).sort());
  index.refresh(1, repo, { optIn: [join(repo, 'config', 'api.key'), join(repo, '.env')] });
  expect(indexed(1)).toEqual([...ordinary.map((name) => `config/${name}`), 'config/api.key', '.env'].sort());
});
