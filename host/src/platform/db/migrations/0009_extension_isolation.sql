-- How each extension runs (NULL: the default for its source and publisher, see effective-isolation.ts),
-- and the crashes its calls caused, for the crash-loop quarantine and `svc ext doctor`.
ALTER TABLE extensions ADD COLUMN isolation TEXT CHECK (isolation IN ('worker', 'process'));
CREATE TABLE extension_crashes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  extension_id TEXT NOT NULL,
  at TEXT NOT NULL,
  method TEXT NOT NULL,
  isolation TEXT NOT NULL,
  reason TEXT NOT NULL,
  -- 0 once the person enabled the provider again: kept for doctor, no longer counted for quarantine.
  counts INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX extension_crashes_by_extension ON extension_crashes (extension_id, at);
