-- The harness: external gateways and the channels reached through them.
-- An external gateway the service hands messages to. The token is a sensitive value: it leaves this
-- table only to the gateway client and is masked everywhere else.
CREATE TABLE harness_gateways (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('openclaw', 'hermes')),
  -- openclaw: the Gateway WebSocket URL; hermes: unused.
  url TEXT,
  -- hermes: the `hermes` executable (PATH lookup when null); openclaw: unused.
  command TEXT,
  token TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- One conversation place on one platform reached through a gateway, with its home target (where
-- unattended messages go), the owner's identity there and the trusted groups, for a scope.
CREATE TABLE harness_channels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  gateway_id INTEGER NOT NULL REFERENCES harness_gateways(id) ON DELETE RESTRICT,
  platform TEXT NOT NULL,
  home_to TEXT NOT NULL,
  home_thread TEXT,
  owner_id TEXT,
  trusted_groups TEXT NOT NULL DEFAULT '[]',
  targets TEXT NOT NULL DEFAULT '[]',
  workspace_id INTEGER REFERENCES workspaces(id) ON DELETE CASCADE,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

