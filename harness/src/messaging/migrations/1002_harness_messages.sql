-- The harness: messages with their outbox rows, asks (park and resume) and the delivery mapping.
-- Every message a task addressed to a person. `status` is the delivery state: LOCAL (registered in
-- the notification center only), PENDING_DELIVERY, SENT, SENT_UNVERIFIED, FAILED.
CREATE TABLE harness_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('ASK', 'NOTIFY', 'PUSH', 'FINAL_RESULT')),
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  project_id INTEGER,
  workspace_id INTEGER,
  execution_id INTEGER,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('LOCAL', 'PENDING_DELIVERY', 'SENT', 'SENT_UNVERIFIED', 'FAILED')),
  expect_reply INTEGER NOT NULL DEFAULT 0,
  channel_id INTEGER REFERENCES harness_channels(id) ON DELETE SET NULL,
  target_to TEXT,
  target_thread TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX harness_messages_by_task ON harness_messages (task_id, id);
CREATE INDEX harness_messages_by_status ON harness_messages (status, id);
CREATE INDEX harness_messages_by_project ON harness_messages (project_id, id);

-- The outbox row of a message that must really be sent, created in the same transaction as the
-- message. `id` is the idempotency key handed to the gateway. Times are epoch milliseconds so the
-- claim compares numbers. state: PENDING (due at next_attempt_at), SENDING (claimed under a lease),
-- SENT, SENT_UNVERIFIED, FAILED (permanent refusal).
CREATE TABLE harness_outbound (
  id TEXT PRIMARY KEY,
  message_id INTEGER NOT NULL UNIQUE REFERENCES harness_messages(id) ON DELETE CASCADE,
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
CREATE INDEX harness_outbound_due ON harness_outbound (state, next_attempt_at);

-- A question waiting for a person. INTENT: a push expecting a reply, not yet delivered; OPEN:
-- awaiting the reply (the task is parked); ANSWERED; SUPERSEDED by a newer ask of the same task.
CREATE TABLE harness_asks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id INTEGER NOT NULL UNIQUE REFERENCES harness_messages(id) ON DELETE CASCADE,
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
-- At most one OPEN ask per task: the database keeps the invariant when two processes race.
CREATE UNIQUE INDEX harness_asks_one_open_per_task ON harness_asks (task_id) WHERE status = 'OPEN';

-- Delivery mapping: which task a platform message belongs to (a reply to it is attributed here).
CREATE TABLE harness_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  outbound_id TEXT NOT NULL UNIQUE REFERENCES harness_outbound(id) ON DELETE CASCADE,
  message_id INTEGER NOT NULL REFERENCES harness_messages(id) ON DELETE CASCADE,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  gateway_id INTEGER REFERENCES harness_gateways(id) ON DELETE SET NULL,
  platform TEXT,
  chat_id TEXT,
  thread_id TEXT,
  platform_message_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX harness_deliveries_by_platform_message ON harness_deliveries (platform, chat_id, platform_message_id);
