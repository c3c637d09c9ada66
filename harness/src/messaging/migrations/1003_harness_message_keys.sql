-- Rekeys the outbox rows, asks and deliveries by their message id (one of each per message) and
-- drops indexes no query needs: a push writes its rows in one transaction, and every index is one
-- more page written. The outbox `id` stays the idempotency key; nothing refers to it any more.
DROP INDEX harness_messages_by_status;
DROP INDEX harness_messages_by_project;

CREATE TABLE harness_outbound_keyed (
  message_id INTEGER PRIMARY KEY REFERENCES harness_messages(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  gateway_id INTEGER REFERENCES harness_gateways(id) ON DELETE SET NULL,
  state TEXT NOT NULL CHECK (state IN ('PENDING', 'SENDING', 'SENT', 'SENT_UNVERIFIED', 'FAILED')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  last_error_code TEXT,
  last_error_message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO harness_outbound_keyed (message_id, id, gateway_id, state, attempts, next_attempt_at, lease_owner, lease_until,
    last_error_code, last_error_message, created_at, updated_at)
  SELECT message_id, id, gateway_id, state, attempts, next_attempt_at, lease_owner, lease_until,
    last_error_code, last_error_message, created_at, updated_at FROM harness_outbound;

CREATE TABLE harness_asks_keyed (
  message_id INTEGER PRIMARY KEY REFERENCES harness_messages(id) ON DELETE CASCADE,
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  execution_id INTEGER,
  status TEXT NOT NULL CHECK (status IN ('INTENT', 'OPEN', 'ANSWERED', 'SUPERSEDED')),
  reply TEXT,
  replied_at TEXT,
  replied_via TEXT,
  resume_outcome TEXT,
  opened_at TEXT,
  created_at TEXT NOT NULL
);
INSERT INTO harness_asks_keyed (message_id, task_id, execution_id, status, reply, replied_at, replied_via, resume_outcome, opened_at, created_at)
  SELECT message_id, task_id, execution_id, status, reply, replied_at, replied_via, resume_outcome, opened_at, created_at FROM harness_asks;

CREATE TABLE harness_deliveries_keyed (
  message_id INTEGER PRIMARY KEY REFERENCES harness_messages(id) ON DELETE CASCADE,
  outbound_id TEXT NOT NULL,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  gateway_id INTEGER REFERENCES harness_gateways(id) ON DELETE SET NULL,
  platform TEXT,
  chat_id TEXT,
  thread_id TEXT,
  platform_message_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);
INSERT INTO harness_deliveries_keyed (message_id, outbound_id, task_id, gateway_id, platform, chat_id, thread_id, platform_message_id, created_at)
  SELECT message_id, outbound_id, task_id, gateway_id, platform, chat_id, thread_id, platform_message_id, created_at FROM harness_deliveries;

-- Children first: the old deliveries refer to the old outbox rows.
DROP TABLE harness_deliveries;
DROP TABLE harness_asks;
DROP TABLE harness_outbound;
ALTER TABLE harness_outbound_keyed RENAME TO harness_outbound;
ALTER TABLE harness_asks_keyed RENAME TO harness_asks;
ALTER TABLE harness_deliveries_keyed RENAME TO harness_deliveries;

CREATE INDEX harness_outbound_due ON harness_outbound (state, next_attempt_at);
-- At most one OPEN ask per task: the database keeps the invariant when two processes race.
CREATE UNIQUE INDEX harness_asks_one_open_per_task ON harness_asks (task_id) WHERE status = 'OPEN';
CREATE INDEX harness_deliveries_by_platform_message ON harness_deliveries (platform, chat_id, platform_message_id);
