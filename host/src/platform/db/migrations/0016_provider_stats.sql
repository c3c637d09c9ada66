-- How running providers behave, per hour (kept 30 days): calls per adapter method with their
-- outcomes and latency histogram, errors by code, activations (cold loads), the last errors, the
-- memory last reported, and which granted permissions Host Context calls used. Written in batches
-- off the call path (provider-stats-recorder.ts).
CREATE TABLE provider_call_stats (
  extension_id TEXT NOT NULL,
  method TEXT NOT NULL,
  -- UTC hour, 'YYYY-MM-DDTHH'
  hour TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  cancelled INTEGER NOT NULL DEFAULT 0,
  timeouts INTEGER NOT NULL DEFAULT 0,
  crashes INTEGER NOT NULL DEFAULT 0,
  max_ms REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (extension_id, method, hour)
);
-- Latency histogram: bucket b counts calls of at most 2^(b/4) ms (latency-buckets.ts).
CREATE TABLE provider_call_latency (
  extension_id TEXT NOT NULL,
  method TEXT NOT NULL,
  hour TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (extension_id, method, hour, bucket)
);
CREATE TABLE provider_error_counts (
  extension_id TEXT NOT NULL,
  code TEXT NOT NULL,
  hour TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (extension_id, code, hour)
);
CREATE TABLE provider_activations (
  extension_id TEXT NOT NULL,
  hour TEXT NOT NULL,
  count INTEGER NOT NULL,
  total_ms REAL NOT NULL,
  max_ms REAL NOT NULL,
  last_ms REAL NOT NULL,
  last_at TEXT NOT NULL,
  PRIMARY KEY (extension_id, hour)
);
-- The last errors of each provider (five kept), messages redacted before they are written.
CREATE TABLE provider_recent_errors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  extension_id TEXT NOT NULL,
  at TEXT NOT NULL,
  method TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL
);
CREATE INDEX provider_recent_errors_by_extension ON provider_recent_errors (extension_id, id);
CREATE TABLE provider_memory (
  extension_id TEXT PRIMARY KEY,
  isolation TEXT NOT NULL,
  heap_used INTEGER NOT NULL,
  rss INTEGER,
  at TEXT NOT NULL
);
CREATE TABLE permission_use (
  extension_id TEXT NOT NULL,
  permission TEXT NOT NULL,
  hour TEXT NOT NULL,
  calls INTEGER NOT NULL,
  last_at TEXT NOT NULL,
  PRIMARY KEY (extension_id, permission, hour)
);
