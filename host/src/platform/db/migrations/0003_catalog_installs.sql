-- Catalog installs. A catalog registration points at one version in the store (extensions.path and
-- .version); it also remembers the version it replaced (rollback) and a staged update that waits for
-- the user to confirm changed permissions while the current version keeps serving.
ALTER TABLE extensions ADD COLUMN previous_version TEXT;
ALTER TABLE extensions ADD COLUMN pending_version TEXT;

-- Every version present in the store (SVC_HOME/extensions/store/<id>/<version>, read-only): the
-- current, the previous and the pending one. A store folder no row names is a leftover.
CREATE TABLE extension_versions (
  id TEXT NOT NULL REFERENCES extensions(id) ON DELETE CASCADE,
  version TEXT NOT NULL,
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  size INTEGER NOT NULL,
  permissions TEXT NOT NULL,
  installed_at TEXT NOT NULL,
  PRIMARY KEY (id, version)
);

-- The install journal: one row per catalog operation in flight, written before it touches anything
-- and deleted in the transaction that completes it. A row whose process is gone is an operation a
-- kill interrupted; the next start undoes what it left (SVC_HOME/extensions/staging/<op_id>, a store
-- folder not yet committed). One operation per extension at a time.
CREATE TABLE extension_operations (
  op_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('install', 'update', 'rollback', 'uninstall')),
  extension_id TEXT NOT NULL UNIQUE,
  version TEXT,
  pid INTEGER NOT NULL,
  pid_start_time TEXT,
  started_at TEXT NOT NULL
);
