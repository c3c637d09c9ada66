-- The harness, part 2: inbound platform messages, conversation bindings, the Workbench's events and
-- review batches.

-- One row per inbound platform message, stored before it is routed. The unique key is the
-- deduplication: a second delivery of the same message cannot insert, it reads this row's state.
-- kind: message (route_gateway_message) or task_context (a reply resolved read-only, upgraded to
-- `continue` by continue_bound_task). state: ROUTING (claimed under a lease), PROCESSED, FAILED.
CREATE TABLE harness_gateway_inbound (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  platform_message_id TEXT NOT NULL,
  thread_id TEXT,
  root_message_id TEXT,
  sender_id TEXT NOT NULL,
  channel_id INTEGER REFERENCES harness_channels(id) ON DELETE SET NULL,
  kind TEXT NOT NULL CHECK (kind IN ('message', 'task_context', 'continue')),
  request TEXT NOT NULL CHECK (request IN ('discussion', 'work', 'continue')),
  text TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('ROUTING', 'PROCESSED', 'FAILED')),
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER,
  project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  conversation_id INTEGER,
  event_id INTEGER,
  routed_by TEXT,
  result TEXT,
  reply_message_id INTEGER,
  last_error_code TEXT,
  last_error_message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  processed_at TEXT,
  UNIQUE (platform, chat_id, platform_message_id)
);
CREATE INDEX harness_gateway_inbound_by_state ON harness_gateway_inbound (state, id);

-- Conversation binding: platform / chat / thread-or-root (or sender, for a discussion without
-- either) ↔ a project conversation. `session_key` names the one session the discussion reuses.
CREATE TABLE harness_conversations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_key TEXT NOT NULL,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  session_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (platform, chat_id, thread_key)
);

-- The user's most recent project per platform (expires after seven days, read side).
CREATE TABLE harness_recent_projects (
  platform TEXT NOT NULL,
  sender_id TEXT NOT NULL,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  used_at TEXT NOT NULL,
  PRIMARY KEY (platform, sender_id)
);

-- Each project's Workbench: its parent task, made on demand (one per project, kept by the key).
CREATE TABLE harness_workbenches (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  task_id INTEGER NOT NULL UNIQUE REFERENCES tasks(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);

-- Events for a parent (Workbench) task. `payload` is written once and never modified.
-- `execution_review_key` is set for completion reviews: the stop hook and the execution end race on
-- it and the database keeps one. state: PENDING, BATCHED (part of batch_id).
CREATE TABLE harness_workbench_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  parent_task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  priority TEXT NOT NULL CHECK (priority IN ('high', 'normal')),
  dedup_key TEXT NOT NULL UNIQUE,
  execution_review_key TEXT UNIQUE,
  source_task_id INTEGER,
  execution_id INTEGER,
  inbound_id INTEGER,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('PENDING', 'BATCHED')),
  batch_id INTEGER,
  created_at TEXT NOT NULL
);
CREATE INDEX harness_workbench_events_pending ON harness_workbench_events (parent_task_id, state, id);

-- A review batch: the parent's pending events merged into one delivery. state: CLAIMED (being
-- written into the parent's terminal, under a lease), DELIVERED, ACKED, RESOLVED. A failed or
-- expired delivery releases its events back to PENDING and drops the batch.
CREATE TABLE harness_workbench_batches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  parent_task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('CLAIMED', 'DELIVERED', 'ACKED', 'RESOLVED')),
  lease_until INTEGER,
  task_message_id INTEGER,
  note TEXT,
  created_at TEXT NOT NULL,
  delivered_at TEXT,
  acked_at TEXT,
  resolved_at TEXT
);
-- One batch in flight per parent: two deliverers cannot both claim.
CREATE UNIQUE INDEX harness_workbench_batches_one_claim ON harness_workbench_batches (parent_task_id) WHERE state = 'CLAIMED';

-- Messages of a task's conversation that the service wrote (role SYSTEM: review batches).
CREATE TABLE harness_task_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('SYSTEM')),
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX harness_task_messages_by_task ON harness_task_messages (task_id, id);

-- Stop-hook notifications the Workbench has looked at (the host table is shared with other readers).
CREATE TABLE harness_stop_cursor (
  notification_id INTEGER PRIMARY KEY,
  seen_at TEXT NOT NULL
);

-- Remote Git repositories onboarded as projects (provision_remote_project is idempotent by URL).
CREATE TABLE harness_remote_projects (
  remote_url TEXT PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  mode TEXT NOT NULL CHECK (mode IN ('REVIEW_ONLY', 'FULL_WORK')),
  created_at TEXT NOT NULL
);

-- Capability requests: a bounded Direct request rides on the outbox (message_id); the key makes a
-- repeated request the same one. `requester_task_id` scopes reads and completion callbacks.
CREATE TABLE harness_capability_requests (
  id TEXT PRIMARY KEY,
  capability TEXT NOT NULL,
  gateway_id INTEGER REFERENCES harness_gateways(id) ON DELETE SET NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  requester_task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  message_id INTEGER REFERENCES harness_messages(id) ON DELETE SET NULL,
  completed_at TEXT,
  created_at TEXT NOT NULL
);
