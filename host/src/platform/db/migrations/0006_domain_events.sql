-- Durable domain events, written in the same transaction as the change they report (an execution
-- ended, a task changed status, a stop hook arrived), and handled later by a polling worker that
-- claims them with a lease. A kill at any point loses none: an unfinished claim expires and is
-- claimed again. Times are epoch milliseconds.
CREATE TABLE domain_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL,
  -- The same fact reported twice is stored once.
  dedup_key TEXT NOT NULL UNIQUE,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  processed_at INTEGER
);
CREATE INDEX domain_events_due ON domain_events (status, next_attempt_at);
