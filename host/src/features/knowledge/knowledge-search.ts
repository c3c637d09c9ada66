import { z } from 'zod';
import type { Db, SqlValue } from '../../platform/db/index.js';
import { ftsQuery } from './fts-query.js';

export const SEARCH_KINDS = ['project', 'task', 'note', 'fact', 'asset', 'file'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SearchHitSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  projectId: z.number(),
  /** Id of the record; null for a repository file. */
  refId: z.number().nullable(),
  /** Repository-relative path, for a file. */
  path: z.string().nullable(),
  title: z.string(),
  /** The matching passage with the terms in [brackets]. */
  snippet: z.string(),
  /** bm25 rank: lower is better. */
  score: z.number(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export interface SearchOptions {
  text: string;
  projectIds?: readonly number[];
  kinds?: readonly SearchKind[];
  limit: number;
}

/** FTS5 over the knowledge records and the indexed repository files; no model is involved. */
export class KnowledgeSearch {
  constructor(private readonly db: Db) {}

  search(options: SearchOptions): SearchHit[] {
    const match = ftsQuery(options.text);
    if (!match) return [];
    const kinds = new Set(options.kinds ?? SEARCH_KINDS);
    const hits: SearchHit[] = [];
    const scope = options.projectIds ? ` AND project_id IN (${options.projectIds.map(() => '?').join(',') || 'NULL'})` : '';
    const scopeParams: SqlValue[] = [...(options.projectIds ?? [])];
    const recordKinds = [...kinds].filter((kind) => kind !== 'file');
    if (recordKinds.length > 0) {
      const rows = this.db
        .prepare(
          `SELECT kind, project_id, ref_id, title, snippet(knowledge_fts, 1, '[', ']', '…', 16) AS snippet, bm25(knowledge_fts, 4.0, 1.0) AS score
           FROM knowledge_fts WHERE knowledge_fts MATCH ? AND kind IN (${recordKinds.map(() => '?').join(',')})${scope}
           ORDER BY score LIMIT ?`,
        )
        .all(match, ...recordKinds, ...scopeParams, options.limit) as { kind: SearchKind; project_id: number; ref_id: number; title: string; snippet: string; score: number }[];
      for (const row of rows) {
        hits.push({ kind: row.kind, projectId: Number(row.project_id), refId: Number(row.ref_id), path: null, title: row.title, snippet: row.snippet || row.title, score: row.score });
      }
    }
    if (kinds.has('file')) {
      const rows = this.db
        .prepare(
          `SELECT f.project_id, f.path, snippet(repo_file_fts, 1, '[', ']', '…', 16) AS snippet, bm25(repo_file_fts, 2.0, 1.0) AS score
           FROM repo_file_fts JOIN repo_files f ON f.id = repo_file_fts.rowid
           WHERE repo_file_fts MATCH ?${scope.replace('project_id', 'f.project_id')}
           ORDER BY score LIMIT ?`,
        )
        .all(match, ...scopeParams, options.limit) as { project_id: number; path: string; snippet: string; score: number }[];
      for (const row of rows) hits.push({ kind: 'file', projectId: row.project_id, refId: null, path: row.path, title: row.path, snippet: row.snippet, score: row.score });
    }
    return hits.sort((a, b) => a.score - b.score).slice(0, options.limit);
  }
}
