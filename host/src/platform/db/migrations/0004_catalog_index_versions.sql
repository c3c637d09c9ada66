-- The highest signed catalog index version this host accepted, per catalog index URL (origin and path,
-- never a query). An index with a lower version is a rollback and is refused. Only indexes whose
-- signature verified with a pinned key are remembered.
CREATE TABLE catalog_index_versions (
  index_url TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  key_id TEXT NOT NULL,
  accepted_at TEXT NOT NULL
);
