import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.js';
import { Domain } from '../../src/features/domain/index.js';
import { ftsQuery } from '../../src/features/knowledge/fts-query.js';
import { ProjectKnowledge } from '../../src/features/knowledge/index.js';

let dir: string;
let db: Db;
let domain: Domain;
let knowledge: ProjectKnowledge;
let repo: string;
let projectId: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-knowledge-'));
  repo = join(dir, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  db = openDatabase(join(dir, 'svc.db'));
  domain = new Domain(db);
  knowledge = new ProjectKnowledge(db);
  const workspace = domain.workspaces.create({ name: 'w' });
  projectId = domain.projects.create({ workspaceId: workspace.id, name: 'p', repoPath: repo }).id;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('full-text queries', () => {
  test('quote every word, so FTS syntax in a question is plain text', () => {
    expect(ftsQuery('What does NOT "near" mean in src/app.ts:12 -v*?')).toBe('"not" OR "near" OR "mean" OR "src" OR "app" OR "ts" OR "12"');
    expect(ftsQuery('a ? the !')).toBeUndefined();
  });

  test('a question full of FTS operators searches without an error', () => {
    writeFileSync(join(repo, 'notes.txt'), 'near the end\n');
    knowledge.repository.refresh(projectId, repo);
    expect(() => knowledge.search.search({ text: 'NEAR(a b) AND OR NOT * ^ "', limit: 5 })).not.toThrow();
    expect(knowledge.search.search({ text: 'NEAR(end)', limit: 5 }).map((hit) => hit.path)).toEqual(['notes.txt']);
  });
});

describe('the repository index', () => {
  test('reads text files, skips hidden folders, dependencies and binaries, and re-reads only what changed', () => {
    writeFileSync(join(repo, 'src', 'app.ts'), 'export const greeting = "bonjour";\n');
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, '.git', 'config'), 'bonjour\n');
    mkdirSync(join(repo, 'node_modules'));
    writeFileSync(join(repo, 'node_modules', 'x.js'), 'bonjour\n');
    writeFileSync(join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x62, 0x6f, 0x6e]));
    expect(knowledge.repository.refresh(projectId, repo)).toEqual({ files: 2, changed: 2, removed: 0, truncated: false });
    expect(knowledge.search.search({ text: 'bonjour', limit: 10 }).map((hit) => hit.path)).toEqual(['src/app.ts']);
    // A binary is found by its name only.
    expect(knowledge.search.search({ text: 'logo', limit: 10 }).map((hit) => hit.path)).toEqual(['logo.png']);

    expect(knowledge.repository.refresh(projectId, repo)).toEqual({ files: 2, changed: 0, removed: 0, truncated: false });
    writeFileSync(join(repo, 'src', 'app.ts'), 'export const greeting = "hola";\n');
    utimesSync(join(repo, 'src', 'app.ts'), new Date(), new Date(Date.now() + 5000));
    unlinkSync(join(repo, 'logo.png'));
    expect(knowledge.repository.refresh(projectId, repo)).toEqual({ files: 1, changed: 1, removed: 1, truncated: false });
    expect(knowledge.search.search({ text: 'bonjour', limit: 10 })).toEqual([]);
    expect(knowledge.search.search({ text: 'hola', limit: 10 }).map((hit) => hit.path)).toEqual(['src/app.ts']);
    expect(knowledge.search.search({ text: 'logo', limit: 10 })).toEqual([]);
  });

  test('a removed project takes its files and records out of the index', () => {
    writeFileSync(join(repo, 'README.md'), 'pelican\n');
    knowledge.repository.refresh(projectId, repo);
    knowledge.notes.create({ projectId, title: 'pelican sighting', body: '' });
    expect(knowledge.search.search({ text: 'pelican', limit: 10 })).toHaveLength(2);
    db.prepare('DELETE FROM notes').run();
    domain.projects.remove(projectId);
    expect(knowledge.search.search({ text: 'pelican', limit: 10 })).toEqual([]);
  });
});
