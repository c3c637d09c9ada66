import { readdirSync, readFileSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Db } from '../../platform/db/index.js';
import { svcHomeOverlap } from '../../platform/config/index.js';
import { transaction } from '../../platform/db/index.js';
import { looksLikeSecretFile } from './secret-file-name.js';

/** Folders that hold tools' output or other people's code, not the project's own knowledge. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'target', 'vendor', 'coverage', '__pycache__', 'venv']);
const MAX_FILE_BYTES = 256 * 1024;
const MAX_FILES = 5000;

export interface RepositoryIndexOptions {
  /** The service's data folder: never indexed, nor a repository inside it. */
  svcHome?: string;
  /** Paths a person opted in: indexed although hidden or named like a secret. */
  optIn?: readonly string[];
}

export interface RepositoryRefresh {
  files: number;
  changed: number;
  removed: number;
  /** True when the walk stopped at MAX_FILES. */
  truncated: boolean;
}

/**
 * The full-text index of a project's repository files (`repo_files` + `repo_file_fts`). Refreshed
 * on use and incrementally: only files whose size or mtime changed are read again. Hidden files and
 * folders, files named like secrets (keys, tokens, credentials), build output, binaries, files over
 * 256 KiB and the service's own data folder are left out; symbolic links are not followed.
 */
export class RepositoryIndex {
  constructor(private readonly db: Db) {}

  refresh(projectId: number, repoPath: string, options: RepositoryIndexOptions = {}): RepositoryRefresh {
    const seen = new Map<string, { size: number; mtimeMs: number; full: string }>();
    let truncated = false;
    // Walked by its real path, and symbolic links are not followed: every path below is real.
    const root = realPath(repoPath);
    const home = options.svcHome !== undefined ? realPath(options.svcHome) : undefined;
    const optIn = (options.optIn ?? []).map(realPath);
    const optedIn = (full: string) => optIn.some((path) => full === path || full.startsWith(path + sep));
    const walk = (dir: string): void => {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (seen.size >= MAX_FILES) {
          truncated = true;
          return;
        }
        const full = join(dir, entry.name);
        if (entry.name.startsWith('.') && !optedIn(full)) continue;
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name) && full !== home) walk(full);
        } else if (entry.isFile()) {
          if (looksLikeSecretFile(entry.name) && !optedIn(full)) continue;
          const stat = statSync(full, { throwIfNoEntry: false });
          if (stat && stat.size <= MAX_FILE_BYTES) seen.set(relative(root, full).split(sep).join('/'), { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs), full });
        }
      }
    };
    // A repository that is the service's data folder, or lies inside it, is not read at all; one
    // that holds it is read around it.
    const overlap = options.svcHome !== undefined ? svcHomeOverlap(root, options.svcHome) : undefined;
    if (overlap !== 'is' && overlap !== 'inside') walk(root);

    const known = new Map(
      (this.db.prepare('SELECT id, path, size, mtime_ms FROM repo_files WHERE project_id = ?').all(projectId) as { id: number; path: string; size: number; mtime_ms: number }[]).map(
        (row) => [row.path, row],
      ),
    );
    const changed = [...seen].filter(([path, file]) => {
      const row = known.get(path);
      return !row || row.size !== file.size || row.mtime_ms !== file.mtimeMs;
    });
    const removed = [...known.values()].filter((row) => !seen.has(row.path));
    if (changed.length === 0 && removed.length === 0) return { files: seen.size, changed: 0, removed: 0, truncated };

    // Files are read before the write transaction, so the database lock is held only for writes.
    const contents = changed.map(([path, file]) => ({ path, file, text: readText(file.full) }));
    transaction(this.db, () => {
      const remove = this.db.prepare('DELETE FROM repo_files WHERE id = ?');
      for (const row of removed) remove.run(row.id);
      const upsert = this.db.prepare(
        `INSERT INTO repo_files (project_id, path, size, mtime_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT (project_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms RETURNING id`,
      );
      const clear = this.db.prepare('DELETE FROM repo_file_fts WHERE rowid = ?');
      const insert = this.db.prepare('INSERT INTO repo_file_fts (rowid, path, body) VALUES (?, ?, ?)');
      for (const { path, file, text } of contents) {
        const { id } = upsert.get(projectId, path, file.size, file.mtimeMs) as { id: number };
        clear.run(id);
        // A binary file is still findable by its path.
        insert.run(id, path, text ?? '');
      }
    });
    return { files: seen.size, changed: changed.length, removed: removed.length, truncated };
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The file as UTF-8 text, or undefined for a binary file (a NUL byte in its first 8 KiB). */
function readText(file: string): string | undefined {
  let buffer: Buffer;
  try {
    buffer = readFileSync(file);
  } catch {
    return undefined;
  }
  if (buffer.subarray(0, 8192).includes(0)) return undefined;
  return buffer.toString('utf8');
}
