import type { Db } from '../../platform/db/index.js';
import type { ProjectRecord } from '../domain/index.js';
import { AssetStore } from './asset-store.js';
import { FactStore } from './fact-store.js';
import { KnowledgeSearch } from './knowledge-search.js';
import { NoteStore } from './note-store.js';
import { RepositoryIndex, type RepositoryIndexOptions, type RepositoryRefresh } from './repository-index.js';

/** What a project knows: facts, notes, assets, its repository, and the search over them. */
export class ProjectKnowledge {
  readonly facts: FactStore;
  readonly notes: NoteStore;
  readonly assets: AssetStore;
  readonly repository: RepositoryIndex;
  readonly search: KnowledgeSearch;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.facts = new FactStore(db, now);
    this.notes = new NoteStore(db, now);
    this.assets = new AssetStore(db, now);
    this.repository = new RepositoryIndex(db);
    this.search = new KnowledgeSearch(db);
  }

  /** Brings the repository index of each project up to date before a search reads it. */
  refresh(projects: readonly ProjectRecord[], options: RepositoryIndexOptions = {}): Record<number, RepositoryRefresh> {
    return Object.fromEntries(projects.map((project) => [project.id, this.repository.refresh(project.id, project.repoPath, options)]));
  }
}
